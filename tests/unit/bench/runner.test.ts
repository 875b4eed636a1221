import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { BenchEvent } from '../../../app/contract/bench-events.js';
import { ResultDocument } from '../../../app/contract/bench-result.js';
import { planSchemaVersion, type Plan } from '../../../app/contract/plan.js';
import { spaceGuardCode } from '../../../app/contract/errors.js';
import { builtinPlan } from '../../../app/core/bench/builtin-plans.js';
import { scalePlan } from '../../../app/core/bench/plans.js';
import { ResultsStore } from '../../../app/core/bench/results-store.js';
import { runBenchmark, runReadFolder } from '../../../app/core/bench/runner.js';
import type { RunOptions } from '../../../app/core/bench/run-options.js';
import { FakeDrive } from '../../helpers/fake-bench-io.js';

let target: string;
let dataDir: string;
beforeEach(async () => {
  target = await mkdtemp(path.join(os.tmpdir(), 'plumb-run-'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'plumb-data-'));
});
afterEach(async () => {
  await rm(target, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

function options(
  plan: Plan,
  extra: Partial<RunOptions> = {},
): RunOptions & { events: BenchEvent[] } {
  const events: BenchEvent[] = [];
  return {
    target,
    plan,
    appVersion: '0.0.0-test',
    signal: new AbortController().signal,
    emit: (event) => events.push(BenchEvent.parse(event)),
    store: new ResultsStore(path.join(dataDir, 'results')),
    reserve: { fraction: 0.1, minBytes: 0 },
    events,
    ...extra,
  };
}

const filesPlan = (sizes: number[], readBack = true): Plan => ({
  schema: planSchemaVersion,
  name: 'tiny',
  kind: 'files',
  sizes,
  repeats: 1,
  shuffle: false,
  readBack,
});

describe('runBenchmark: files plans', () => {
  it('writes then reads every file, reports events in order, removes its files and stores the result', async () => {
    const drive = new FakeDrive({ fastRate: 1e9, readRate: 2e9, latencySeconds: 0 });
    const run = options(filesPlan([1e6, 2e6, 4e6]));
    const document = await runBenchmark(run, drive);
    ResultDocument.parse(document);
    assert.deepEqual(await readdir(target), [], 'the test folder is gone');
    assert.deepEqual(
      document.files.map((f) => [f.phase, f.bytes, f.cumulativeBytes]),
      [
        ['write', 1e6, 1e6],
        ['write', 2e6, 3e6],
        ['write', 4e6, 7e6],
        ['read', 1e6, 1e6],
        ['read', 2e6, 3e6],
        ['read', 4e6, 7e6],
      ],
    );
    assert.equal(document.summary.write.median, 1e9);
    assert.equal(document.summary.read.median, 2e9);
    assert.equal(document.environment.cacheMode, 'direct');
    assert.match(document.environment.cacheDefeat ?? '', /direct I\/O/);
    const types = run.events.map((e) => e.type);
    assert.equal(types[0], 'plan-started');
    assert.equal(types.at(-1), 'finished');
    assert.equal(types.filter((t) => t === 'file-done').length, 6);
    assert.ok(types.includes('sample'));
    assert.ok(run.events.every((e) => e.runId === document.id));
    const stored = await run.store!.get(document.id);
    assert.deepEqual(stored.files, document.files);
  });

  it('drops every written file from the OS cache before the read phase, and says how', async () => {
    const drive = new FakeDrive({ latencySeconds: 0 });
    const document = await runBenchmark(options(filesPlan([1e6, 3e6, 2e6])), drive);
    assert.equal(drive.evicted.length, 1, 'one eviction, before the read phase');
    assert.deepEqual(
      drive.evicted[0]!.map((file) => path.basename(file)),
      ['file-00000.dat', 'file-00001.dat', 'file-00002.dat'],
    );
    assert.equal(document.environment.cacheEviction, 'fake eviction');

    const writeOnly = new FakeDrive({ latencySeconds: 0 });
    const written = await runBenchmark(options(filesPlan([1e6], false)), writeOnly);
    assert.deepEqual(writeOnly.evicted, []);
    assert.equal(written.environment.cacheEviction, undefined);
  });

  it('records the shuffle seed and scale so the run can be repeated', async () => {
    const plan = scalePlan(builtinPlan('standard')!, 0.001);
    const document = await runBenchmark(
      options(plan, { seed: 1234, scale: 0.001 }),
      new FakeDrive(),
    );
    assert.equal(document.plan.seed, 1234);
    assert.equal(document.plan.scale, 0.001);
    assert.equal(document.files.length, 320);
    assert.ok(document.findings.some((f) => f.kind === 'small-files'));
  });

  it('marks buffered runs and says how the cache was defeated', async () => {
    const document = await runBenchmark(
      options(filesPlan([8192, 8192, 8192]), { buffered: true }),
      new FakeDrive({ cacheMode: 'buffered' }),
    );
    assert.equal(document.environment.cacheMode, 'buffered');
    assert.ok(document.findings.some((f) => f.kind === 'buffered'));
  });

  it('can keep its files when asked', async () => {
    const run = options(filesPlan([8192]), { keepFiles: true });
    const document = await runBenchmark(run, new FakeDrive());
    const [folder] = await readdir(target);
    assert.match(folder ?? '', /^plumb-test-/);
    assert.ok((document.notices ?? []).some((n) => n.includes('kept')));
  });

  it('removes stale folders of crashed runs and says so', async () => {
    const { createTestFolder, markerName } = await import('../../../app/core/bench/test-folder.js');
    const { writeFile } = await import('node:fs/promises');
    const stale = await createTestFolder(target);
    await writeFile(
      path.join(stale, markerName),
      JSON.stringify({
        pid: 999_999_999,
        host: os.hostname(),
        startedAt: new Date().toISOString(),
      }),
    );
    const document = await runBenchmark(options(filesPlan([8192])), new FakeDrive());
    assert.deepEqual(await readdir(target), []);
    assert.ok((document.notices ?? []).some((n) => n.includes('left behind')));
  });
});

describe('runBenchmark: cancel and failures', () => {
  it('cancels between files, removes every file and reports cancelled', async () => {
    const controller = new AbortController();
    const drive = new FakeDrive({ beforeWrite: (index) => index === 3 && controller.abort() });
    const run = options(filesPlan([1e6, 1e6, 1e6, 1e6, 1e6, 1e6]), { signal: controller.signal });
    await assert.rejects(runBenchmark(run, drive), { code: 'ECANCELED' });
    assert.deepEqual(await readdir(target), []);
    assert.equal(run.events.at(-1)?.type, 'cancelled');
    assert.deepEqual(await run.store!.list(), [], 'no result stored');
  });

  it('refuses up front a plan that would cross the free-space reserve', async () => {
    const drive = new FakeDrive({ totalBytes: 100e6, availableBytes: 50e6 });
    const run = options(filesPlan([25e6, 25e6]));
    await assert.rejects(runBenchmark(run, drive), /only 40\.0 MB may be used/);
    assert.equal(drive.writes, 0);
    assert.deepEqual(await readdir(target), []);
  });

  it('stops before the volume fills when something else eats the space during the run', async () => {
    const drive = new FakeDrive({
      totalBytes: 100e6,
      availableBytes: 80e6,
      beforeWrite: (index, d) => {
        if (index === 1) d.externalBytes = 55e6;
      },
    });
    const run = options(filesPlan([10e6, 10e6, 10e6, 10e6]));
    await assert.rejects(runBenchmark(run, drive), { code: spaceGuardCode });
    assert.equal(drive.writes, 2, 'the third file was never started');
    assert.equal(run.events.at(-1)?.type, 'failed');
    assert.deepEqual(await readdir(target), []);
  });

  it('rejects a folder that does not exist', async () => {
    await assert.rejects(
      runBenchmark(
        options(filesPlan([8192]), { target: path.join(target, 'nope') }),
        new FakeDrive(),
      ),
      { code: 'ENOENT' },
    );
  });
});

describe('runBenchmark: sustained', () => {
  const sustained = (extra: Partial<Extract<Plan, { kind: 'sustained' }>> = {}): Plan => ({
    schema: planSchemaVersion,
    name: 'sustained',
    kind: 'sustained',
    minFileBytes: 20e6,
    maxFileBytes: 200e6,
    totalBytes: 6e9,
    timeLimitSeconds: null,
    recovery: null,
    ...extra,
  });

  it('finds the cache cliff and times the recovery after idle', async () => {
    const drive = new FakeDrive({
      fastRate: 2e9,
      slowRate: 0.5e9,
      cacheBytes: 2e9,
      drainRate: 0.1e9,
    });
    const plan = sustained({ recovery: { idleSeconds: 5, probeBytes: 100e6, maxProbes: 10 } });
    const document = await runBenchmark(options(plan, { seed: 3 }), drive);
    const cliff = document.findings.find((f) => f.kind === 'cliff');
    assert.ok(cliff && cliff.kind === 'cliff', JSON.stringify(document.findings));
    assert.ok(Math.abs(cliff.atBytes - 2e9) < 0.05 * 2e9, `cliff at ${cliff.atBytes}`);
    assert.ok(Math.abs(cliff.beforeRate / 2e9 - 1) < 0.05);
    assert.ok(Math.abs(cliff.afterRate / 0.5e9 - 1) < 0.05);
    // The cache is full at the end; 5 s idle drains 0.5 GB, room for the 100 MB probe.
    assert.equal(document.recovery?.probes.length, 1);
    assert.ok(Math.abs(document.recovery!.recoverySeconds! - 5) < 1e-6);
    // Recovery after idle alone cannot tell a cache from a drive that cooled (issue 13).
    assert.equal(cliff.cause, 'unknown');
    assert.equal(cliff.recoverySeconds, document.recovery.recoverySeconds);
    assert.deepEqual(await readdir(target), []);
  });

  it('reports the cliff as a finding event as soon as it is clear, before the writing ends', async () => {
    const drive = new FakeDrive({ fastRate: 2e9, slowRate: 0.5e9, cacheBytes: 2e9 });
    const events: BenchEvent[] = [];
    const document = await runBenchmark(
      options(sustained(), { seed: 3, emit: (event) => events.push(event) }),
      drive,
    );
    const firstLive = events.findIndex((e) => e.type === 'finding');
    const lastFile = events.findLastIndex((e) => e.type === 'file-done');
    assert.ok(firstLive > 0 && firstLive < lastFile, 'found while files were still written');
    const live = events[firstLive]!;
    assert.ok(live.type === 'finding' && live.finding.kind === 'cliff');
    assert.ok(Math.abs(live.finding.atBytes - 2e9) < 0.1 * 2e9, `live at ${live.finding.atBytes}`);
    const writtenThen = events
      .slice(0, firstLive)
      .filter((e) => e.type === 'file-done')
      .reduce((sum, e) => sum + (e.type === 'file-done' ? e.file.bytes : 0), 0);
    assert.ok(writtenThen < 3e9, `reported after ${writtenThen} bytes`);
    // The final findings stay authoritative: they close the run.
    const finished = events.at(-1)!;
    assert.ok(finished.type === 'finished');
    assert.deepEqual(finished.findings, document.findings);
  });

  it('says when the rate did not come back, and cannot then tell cache from heat', async () => {
    const drive = new FakeDrive({ fastRate: 2e9, slowRate: 0.5e9, cacheBytes: 2e9, drainRate: 0 });
    const plan = sustained({ recovery: { idleSeconds: 5, probeBytes: 100e6, maxProbes: 3 } });
    const document = await runBenchmark(options(plan, { seed: 3 }), drive);
    assert.equal(document.recovery?.probes.length, 3);
    assert.equal(document.recovery?.recoverySeconds, null);
    const cliff = document.findings.find((f) => f.kind === 'cliff');
    assert.ok(cliff && cliff.kind === 'cliff' && cliff.cause === 'unknown');
  });

  it('rotates out its oldest files when the guard needs room, and says so', async () => {
    const drive = new FakeDrive({ totalBytes: 10e9, availableBytes: 2e9 });
    const document = await runBenchmark(
      options(sustained({ totalBytes: 5e9 }), { seed: 1 }),
      drive,
    );
    const written = document.files.reduce((sum, f) => sum + f.bytes, 0);
    assert.ok(written >= 5e9 - 4096 && written <= 5e9 + 4096, `wrote ${written}`);
    assert.ok((document.notices ?? []).some((n) => n.startsWith('Rotated')));
    assert.deepEqual(await readdir(target), []);
  });

  it('defaults the total to the smaller of the allowance and four times a cache guess', async () => {
    const drive = new FakeDrive({ totalBytes: 20e9, availableBytes: 15e9 });
    // Reserve 2 GB → allowance 13 GB; cache guess min(15/3, 2) = 2 GB → 8 GB.
    const document = await runBenchmark(options(sustained({ totalBytes: null })), drive);
    assert.equal(document.plan.totalBytes, 8e9);
  });

  it('shrinks that default total by the scale, like every other size', async () => {
    const drive = new FakeDrive({ totalBytes: 20e9, availableBytes: 15e9 });
    const plan = scalePlan(sustained({ totalBytes: null }), 0.01);
    const document = await runBenchmark(options(plan, { scale: 0.01 }), drive);
    // 8 GB × 0.01, in whole 4 KiB blocks.
    assert.equal(document.plan.totalBytes, Math.round(80e6 / 4096) * 4096);
    const written = document.files.reduce((sum, f) => sum + f.bytes, 0);
    assert.ok(Math.abs(written - 80e6) <= 4096, `wrote ${written}`);
  });

  it('stops at the time limit', async () => {
    const drive = new FakeDrive({ fastRate: 1e9 });
    const document = await runBenchmark(options(sustained({ timeLimitSeconds: 1 })), drive);
    assert.ok(document.files.at(-1)!.t >= 1 && document.files.at(-1)!.t < 1.3);
  });
});

describe('runBenchmark: presets', () => {
  it('runs the queue-depth grid and records each run', async () => {
    const plan = scalePlan(builtinPlan('presets')!, 0.001);
    const run = options(plan);
    const document = await runBenchmark(run, new FakeDrive());
    assert.equal(document.runs?.length, 8);
    assert.equal(document.runs?.[2]?.name, 'RND4K Q32T1 read');
    assert.equal(document.runs?.[2]?.bytesPerSecond, 50e6 * 32);
    assert.ok(run.events.some((e) => e.type === 'sample' && e.run === 'SEQ1M Q8T1 read'));
    assert.deepEqual(await readdir(target), []);
  });
});

describe('runReadFolder', () => {
  it('reads every file under a folder, in name order, and writes nothing', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(path.join(target, 'b'));
    await writeFile(path.join(target, 'a.bin'), Buffer.alloc(3000));
    await writeFile(path.join(target, 'b', 'c.bin'), Buffer.alloc(5000));
    await writeFile(path.join(target, 'empty'), '');
    const drive = new FakeDrive();
    const run = options(filesPlan([1]));
    const document = await runReadFolder(run, drive);
    assert.equal(document.plan.name, 'read-folder');
    assert.deepEqual(
      document.files.map((f) => f.phase),
      ['read', 'read'],
    );
    assert.equal(drive.writes, 0);
    assert.deepEqual((await readdir(target)).sort(), ['a.bin', 'b', 'empty']);
    assert.deepEqual(drive.evicted, [
      [path.join(target, 'a.bin'), path.join(target, 'b', 'c.bin')],
    ]);
    assert.equal(document.environment.cacheEviction, 'fake eviction');
  });
});
