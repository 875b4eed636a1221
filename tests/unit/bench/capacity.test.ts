/**
 * The capacity plan on a pretend drive: it fills what the guard allows, reads every file back and
 * checks it, says in words whether the drive holds what it claims, shows honest progress over both
 * halves, and leaves nothing behind when cancelled. A fake drive's real size is drawn at random.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { BenchEvent } from '../../../app/contract/bench-events.js';
import type { Plan } from '../../../app/contract/plan.js';
import { spaceGuardCode } from '../../../app/contract/errors.js';
import { builtinPlan } from '../../../app/core/bench/builtin-plans.js';
import { scalePlan } from '../../../app/core/bench/plans.js';
import { ResultsStore } from '../../../app/core/bench/results-store.js';
import { runBenchmark } from '../../../app/core/bench/runner.js';
import type { RunOptions } from '../../../app/core/bench/run-options.js';
import { baseSeed, seededRandom } from '../../helpers/synthetic-samples.js';
import { FakeDrive } from '../../helpers/fake-bench-io.js';

const GB = 1e9;
const seed = baseSeed();
const random = seededRandom(seed);

let target: string;
let dataDir: string;
beforeEach(async () => {
  target = await mkdtemp(path.join(os.tmpdir(), 'plumb-capacity-'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'plumb-capacity-data-'));
});
afterEach(async () => {
  await rm(target, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

/** The built-in plan with the default reserve, as `plumb bench DIR --plan capacity` runs it. */
function capacityRun(
  extra: Partial<RunOptions> = {},
  plan: Plan = builtinPlan('capacity')!,
): RunOptions & { events: BenchEvent[]; store: ResultsStore } {
  const events: BenchEvent[] = [];
  return {
    target,
    plan,
    appVersion: '0.0.0-test',
    signal: new AbortController().signal,
    emit: (event) => events.push(BenchEvent.parse(event)),
    store: new ResultsStore(path.join(dataDir, 'results')),
    events,
    ...extra,
  } as RunOptions & { events: BenchEvent[]; store: ResultsStore };
}

/** A drive of `totalBytes` with `availableBytes` free (a 64 GB stick by default). */
const drive = (options: ConstructorParameters<typeof FakeDrive>[0] = {}) =>
  new FakeDrive({ totalBytes: 64 * GB, availableBytes: 62 * GB, readRate: 1.2e9, ...options });

describe('the capacity plan', () => {
  it('fills the allowance, reads every block back, and says the drive holds it', async () => {
    const disk = drive();
    const run = capacityRun();
    const document = await runBenchmark(run, disk);
    // The default reserve on 64 GB: 6.4 GB kept free, 55.6 GB to fill.
    const allowance = 62 * GB - 6.4 * GB;
    const fill = Math.floor(allowance / 4096) * 4096;
    const written = document.files.reduce((sum, f) => sum + f.bytes, 0);
    assert.ok(written <= fill && written > fill - 2 ** 21, `filled ${written}`);
    assert.ok(disk.leastAvailable >= 6.4 * GB, 'never crossed the reserve');
    assert.equal(document.files.length, Math.ceil(allowance / GB));
    assert.ok(document.files.every((f) => f.phase === 'write'));
    assert.equal(document.verify?.verdict, 'passed');
    assert.equal(document.verify?.bytesChecked, written);
    assert.match(
      document.verify!.message,
      /^Capacity checked: 55\.6 GB written and read back intact\. Every byte written/,
    );
    assert.deepEqual(
      { total: document.plan.totalBytes, allowance: document.plan.allowanceBytes },
      { total: fill, allowance },
    );
    assert.equal(document.notices, undefined, 'nothing rotated out, nothing to say');
    assert.deepEqual(await readdir(target), [], 'its files are removed');
    assert.equal((await run.store.list()).length, 1);

    // Progress: both halves in one total from the start, never past it, the read-back a phase.
    const started = run.events.find((e) => e.type === 'plan-started');
    assert.ok(started?.type === 'plan-started' && started.bytes === 2 * fill);
    const phases = run.events.flatMap((e) => (e.type === 'phase-started' ? [e.phase] : []));
    assert.deepEqual(phases, ['write', 'read']);
    const samples = run.events.filter((e) => e.type === 'sample');
    assert.ok(samples.every((e) => e.totalBytes === null || e.bytesDone <= e.totalBytes));
    const readSamples = samples.filter((e) => e.phase === 'read');
    assert.ok(readSamples.length > 0 && readSamples.every((e) => e.bytesPerSecond! > 0));
    assert.ok(Math.abs(readSamples.at(-1)!.bytesDone - 2 * written) < 1);
  });

  it('catches a drive that stores less than it reports, whatever its real size', async () => {
    const allowance = 62 * GB - 6.4 * GB;
    const realBytes = Math.round((0.05 + 0.9 * random()) * allowance);
    const disk = drive({ realBytes });
    const document = await runBenchmark(capacityRun(), disk);
    const verify = document.verify!;
    const written = verify.bytesChecked;
    assert.equal(verify.verdict, 'failed');
    assert.equal(verify.badBytes, written - realBytes, `real ${realBytes} of ${written}`);
    assert.equal(verify.firstBad?.runOffset, 0);
    assert.equal(verify.firstBad?.found.kind, 'other-block');
    assert.match(
      verify.message,
      /^Capacity check failed: \S+ [KMG]B of 55\.6 GB read back wrong from the start: this drive stores less than it reports\. Data written was not kept/,
    );
  });

  it('reports a drive that answers reads with I/O errors, and reads on past them', async () => {
    const allowance = 62 * GB - 6.4 * GB;
    const from = Math.floor(((0.05 + 0.9 * random()) * allowance) / 4096) * 4096;
    const disk = drive({ unreadableFrom: from });
    const run = capacityRun();
    const document = await runBenchmark(run, disk);
    const verify = document.verify!;
    assert.equal(verify.verdict, 'failed', `unreadable from ${from}`);
    // Found at the last whole 4 KiB block of its file read before the error.
    const found = verify.firstBad!.runOffset;
    assert.ok(found <= from && from - found < 4096, `found ${found}, unreadable from ${from}`);
    assert.equal(verify.firstBad?.found.kind, 'unreadable');
    // Every file was read (the ones after the first error too), every byte from there counted.
    assert.equal(verify.files, document.files.length);
    assert.equal(verify.badBytes, verify.bytesChecked - found);
    assert.match(
      verify.message,
      /^Capacity check failed: \S+ [KMG]B of 55\.6 GB read back wrong from \S+ [KMG]B on: the drive could not read back what it was given.* Data written could not be read back: .* the drive answered with read errors/,
    );
    assert.deepEqual(await readdir(target), [], 'its files are removed');
    assert.equal((await run.store.list()).length, 1, 'the result is saved');
  });

  it('at a quick scale fills its share, and a pass says how little that proves', async () => {
    const plan = scalePlan(builtinPlan('capacity')!, 0.01);
    const document = await runBenchmark(capacityRun({ scale: 0.01 }, plan), drive());
    const written = document.files.reduce((sum, f) => sum + f.bytes, 0);
    assert.ok(Math.abs(written - 0.556 * GB) < 4096, `filled ${written}`);
    assert.equal(document.files.length, 56, 'files of 10 MB');
    assert.match(document.verify!.message, /That is 1 % of the 55\.6 GB that may be written here/);
  });

  it('stops filling where the free space falls during the run, and still checks what it wrote', async () => {
    const disk = drive({
      beforeWrite: (index, d) => {
        if (index === 20) d.externalBytes = 30 * GB;
      },
    });
    const run = capacityRun();
    const document = await runBenchmark(run, disk);
    assert.ok(disk.leastAvailable >= 6.4 * GB, 'never crossed the reserve');
    const written = document.files.reduce((sum, f) => sum + f.bytes, 0);
    assert.ok(written < 26 * GB && written > 24 * GB, `filled ${written}`);
    assert.equal(document.verify?.verdict, 'passed');
    assert.equal(document.verify?.bytesChecked, written);
    assert.match(document.notices?.join(' ') ?? '', /^Filled \S+ GB of the 55\.6 GB planned/);
    assert.equal((await run.store.list()).length, 1, 'the result is saved');
  });

  it('cancelled while reading back: nothing left, nothing saved', async () => {
    const controller = new AbortController();
    const disk = drive();
    const original = disk.verify.bind(disk);
    let checked = 0;
    disk.verify = (file, stamp, options) => {
      checked += 1;
      if (checked === 3) controller.abort();
      return original(file, stamp, options);
    };
    const run = capacityRun({ signal: controller.signal });
    await assert.rejects(runBenchmark(run, disk), { code: 'ECANCELED' });
    assert.deepEqual(await readdir(target), []);
    assert.equal(run.events.at(-1)?.type, 'cancelled');
    assert.deepEqual(await run.store.list(), []);
  });

  it('is refused up front where nothing may be written, saying what would work', async () => {
    const disk = drive({ totalBytes: 4 * GB, availableBytes: 1 * GB });
    await assert.rejects(runBenchmark(capacityRun(), disk), (error: Error & { code?: string }) => {
      assert.equal(error.code, spaceGuardCode);
      assert.match(
        error.message,
        /^The capacity check fills the space that may be used, but only 0 B/,
      );
      assert.match(error.message, /What would work: .*freeing/);
      return true;
    });
    assert.equal(disk.writes, 0);
  });
});
