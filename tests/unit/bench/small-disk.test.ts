/**
 * The built-in sustained plan on small disks (issue 23): its recovery probes are sized to what
 * may be written (or skipped, saying why) before the writing starts, the rests before them are
 * said as waits, and a phase that cannot go on ends the run with what was measured saved.
 */
import assert from 'node:assert/strict';
import { formatBytes } from '../../../app/common/format.js';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ProgressView } from '../../../app/cli/bench/progress.js';
import { BenchEvent } from '../../../app/contract/bench-events.js';
import type { Plan } from '../../../app/contract/plan.js';
import { PlumbError } from '../../../app/contract/errors.js';
import { builtinPlan } from '../../../app/core/bench/builtin-plans.js';
import { ResultsStore } from '../../../app/core/bench/results-store.js';
import { runBenchmark } from '../../../app/core/bench/runner.js';
import type { RunOptions } from '../../../app/core/bench/run-options.js';
import { baseSeed, seededRandom } from '../../helpers/synthetic-samples.js';
import { FakeDrive, type FakeDriveOptions } from '../../helpers/fake-bench-io.js';

const GB = 1e9;
const seed = baseSeed();
const random = seededRandom(seed);

let target: string;
let dataDir: string;
beforeEach(async () => {
  target = await mkdtemp(path.join(os.tmpdir(), 'plumb-small-'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'plumb-small-data-'));
});
afterEach(async () => {
  await rm(target, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

/** `plumb bench DIR --plan sustained` with the default reserve. */
function sustainedRun(extra: Partial<RunOptions> = {}, plan: Plan = builtinPlan('sustained')!) {
  const events: BenchEvent[] = [];
  const store = new ResultsStore(path.join(dataDir, 'results'));
  const options: RunOptions = {
    target,
    plan,
    appVersion: '0.0.0-test',
    signal: new AbortController().signal,
    emit: (event) => events.push(BenchEvent.parse(event)),
    store,
    seed: 7,
    ...extra,
  };
  return { options, events, store };
}

/** A 3 GB disk with 2.9 GB free and an SLC cache of 0.3–0.8 GB (drawn), as in the issue. */
function threeGbDisk(extra: FakeDriveOptions = {}): FakeDrive {
  return new FakeDrive({
    totalBytes: 3 * GB,
    availableBytes: 2.9 * GB,
    cacheBytes: (0.3 + 0.5 * random()) * GB,
    fastRate: 0.8 * GB,
    slowRate: 0.2 * GB,
    drainRate: 0.05 * GB,
    samples: true,
    ...extra,
  });
}

describe('the sustained plan on a small disk', () => {
  it('sizes its recovery probes to what fits, says so before writing, and saves the cliff', async () => {
    const disk = threeGbDisk();
    const run = sustainedRun();
    const document = await runBenchmark(run.options, disk);
    // Default reserve 1 GB: 1.9 GB may be written; the plan's 2 GB probe does not fit.
    const sizedNotice = run.events.findIndex(
      (e) => e.type === 'notice' && e.message.startsWith('Recovery probes of 1.8'),
    );
    const firstFile = run.events.findIndex((e) => e.type === 'file-done');
    assert.ok(sizedNotice >= 0 && sizedNotice < firstFile, 'said before the writing');
    const probeBytes = (document.plan as { recovery?: { probeBytes: number } }).recovery
      ?.probeBytes;
    assert.ok(probeBytes && probeBytes > 1.8 * GB && probeBytes < 1.9 * GB, `${probeBytes}`);
    assert.match(String(document.plan.description), /probe with 1\.8\d GB until the rate is back/);
    const cliff = document.findings.find((f) => f.kind === 'cliff');
    assert.ok(cliff, JSON.stringify(document.findings.map((f) => f.message)));
    assert.ok(document.recovery && document.recovery.probes.length > 0);
    // Each probe as large as fits, and no larger than a quarter more than the cache found.
    const cacheBytes = cliff.kind === 'cliff' ? (cliff.steps?.at(-1)?.atBytes ?? cliff.atBytes) : 0;
    assert.ok(
      document.recovery.probes.every(
        (p) => p.bytes <= probeBytes && p.bytes <= 1.25 * cacheBytes + 4096,
      ),
      JSON.stringify(document.recovery.probes),
    );
    assert.ok(disk.leastAvailable >= 1 * GB, 'never crossed the reserve');
    assert.equal((await run.store.list()).length, 1, 'the result is saved');
    assert.deepEqual(await readdir(target), []);
  });

  it('says each rest before a probe as a wait, and gives probes no share of the run', async () => {
    const run = sustainedRun();
    await runBenchmark(run.options, threeGbDisk());
    const waits = run.events.filter((e) => e.type === 'wait');
    assert.ok(waits.length > 0);
    waits.forEach((wait, probe) =>
      assert.deepEqual(wait.type === 'wait' && [wait.seconds, wait.probe, wait.maxProbes], [
        30,
        probe,
        20,
      ]),
    );
    const probeSamples = run.events.filter((e) => e.type === 'sample' && e.phase === 'recovery');
    assert.ok(probeSamples.length > 0);
    assert.ok(probeSamples.every((e) => e.type === 'sample' && e.totalBytes === null));
    // Every wait comes after the phase started and before that probe's first sample.
    const recoveryStart = run.events.findIndex(
      (e) => e.type === 'phase-started' && e.phase === 'recovery',
    );
    const firstWait = run.events.indexOf(waits[0]!);
    const firstProbeSample = run.events.indexOf(probeSamples[0]!);
    assert.ok(recoveryStart < firstWait && firstWait < firstProbeSample);
  });

  it('skips the recovery where not even a small probe fits, and says why before writing', async () => {
    // 180 MB may be written: less than the plan's smallest file (200 MB).
    const disk = threeGbDisk();
    const run = sustainedRun({ reserve: { fraction: 0, minBytes: 2_720_000_000 } });
    const document = await runBenchmark(run.options, disk);
    assert.equal(run.events.find((e) => e.type === 'notice')?.type, 'notice');
    const notice = run.events.find((e) => e.type === 'notice');
    assert.equal(
      notice?.type === 'notice' && notice.message,
      'The recovery is not timed: a probe needs at least 200 MB, and only 180 MB may be written here.',
    );
    assert.equal((document.plan as { recovery?: unknown }).recovery, null);
    assert.equal(document.recovery, undefined);
    assert.ok(!run.events.some((e) => e.type === 'phase-started' && e.phase === 'recovery'));
  });

  it('keeps the cliff and the probes so far when the space goes during a rest', async () => {
    const disk = threeGbDisk({ drainRate: 0 });
    let rests = 0;
    const sleep = disk.sleep.bind(disk);
    disk.sleep = async (seconds, signal) => {
      rests += 1;
      // Another program fills the disk during the second rest.
      if (rests === 2) disk.externalBytes = 1.8 * GB;
      return sleep(seconds, signal);
    };
    const run = sustainedRun();
    const document = await runBenchmark(run.options, disk);
    assert.equal(document.recovery?.probes.length, 1);
    assert.match(
      document.notices?.join('\n') ?? '',
      /^The recovery probes stopped after 1 of at most 20: Stopped before the disk filled up/m,
    );
    assert.ok(document.findings.some((f) => f.kind === 'cliff'));
    assert.equal((await run.store.list()).length, 1, 'the result is saved');
    assert.equal(run.events.at(-1)?.type, 'finished');
  });

  it('keeps what it measured when a probe fails with an I/O error', async () => {
    const disk = threeGbDisk({ drainRate: 0 });
    const write = disk.write.bind(disk);
    disk.write = async (file, bytes, options) => {
      if (path.basename(file) === 'probe-1.dat') throw new PlumbError('EIO', 'Input/output error');
      return write(file, bytes, options);
    };
    const run = sustainedRun();
    const document = await runBenchmark(run.options, disk);
    assert.equal(document.recovery?.probes.length, 1);
    assert.match(
      document.notices?.join('\n') ?? '',
      /^The recovery probes stopped after 1 of at most 20: probe 2 failed \(Input\/output error\)\.$/m,
    );
    assert.equal((await run.store.list()).length, 1, 'the result is saved');
    assert.deepEqual(await readdir(target), []);
  });

  it('ends with what it wrote when the space goes during the writing, and says why', async () => {
    let recorded = 0;
    const disk = threeGbDisk({
      // Another program fills the disk once the third file is done.
      temperature: () => {
        recorded += 1;
        if (recorded === 3) disk.externalBytes = 1.85 * GB;
        return null;
      },
    });
    const plan = { ...builtinPlan('sustained')!, minFileBytes: 200e6, maxFileBytes: 200e6 };
    const run = sustainedRun({ totalBytes: 1.8 * GB }, plan as Plan);
    const document = await runBenchmark(run.options, disk);
    assert.equal(document.files.length, 3);
    assert.match(
      document.notices?.join('\n') ?? '',
      /The writing stopped after 600 MB of 1\.80 GB, and the recovery is not timed: Stopped before the disk filled up/,
    );
    assert.equal(document.recovery, undefined);
    assert.equal((await run.store.list()).length, 1, 'the result is saved');
    assert.ok(disk.leastAvailable >= 1 * GB - 1, 'never crossed the reserve');
  });

  it('on the command line: the sizing before the writing, each rest a line, no bar at 100 % after', async () => {
    const run = sustainedRun();
    await runBenchmark(run.options, threeGbDisk());
    const render = (isTTY: boolean) => {
      const stream = Object.assign(new PassThrough(), { isTTY, columns: 160 });
      let text = '';
      stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
      const view = new ProgressView(stream);
      for (const event of run.events) view.handle(event);
      return text;
    };
    const lines = render(false).split('\n');
    const sized = lines.findIndex((l) =>
      /^plumb: Recovery probes of 1\.\d\d GB instead of 2\.00 GB: /.test(l),
    );
    assert.ok(sized > 0 && sized < lines.indexOf('write:'), lines.join('\n'));
    const firstWait = run.events.find((e) => e.type === 'wait');
    assert.ok(firstWait && firstWait.type === 'wait');
    assert.ok(
      lines.includes(
        `plumb: resting the disk 30 s so its cache can empty, then recovery probe 1 of at most 20 (${formatBytes(firstWait.probeBytes)})`,
      ),
      lines.join('\n'),
    );
    const terminal = render(true);
    const afterRest = terminal.slice(terminal.indexOf('plumb: resting the disk'));
    assert.doesNotMatch(afterRest, /%/, 'probes have no share of the run');
  });
});
