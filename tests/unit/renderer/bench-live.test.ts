import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningBench } from '../../../app/contract/bench.js';
import type { BenchEvent } from '../../../app/contract/bench-events.js';
import {
  applyBenchEvent,
  bytesSoFar,
  newLiveRun,
  progressFraction,
  secondsLeft,
  type LiveRun,
} from '../../../renderer/src/screens/bench/live-run.js';
import { liveRunFromSnapshot } from '../../../renderer/src/screens/bench/live-snapshot.js';
import { cliffMarks } from '../../../renderer/src/ui/result/series.js';

function fold(
  events: BenchEvent[],
  start: LiveRun = newLiveRun('r1', 'standard', '/tmp/x'),
): LiveRun {
  return events.reduce(applyBenchEvent, start);
}

const file = (phase: 'write' | 'read', bytes: number, cumulativeBytes: number) => ({
  phase,
  bytes,
  seconds: bytes / 1e9,
  cumulativeBytes,
  t: cumulativeBytes / 1e9,
  temperatureC: null,
});

test('a files run: progress, GB written, rate and time left follow the events', () => {
  const run = fold([
    { type: 'plan-started', runId: 'r1', plan: 'standard', target: '/tmp/x', files: 4, bytes: 8e9 },
    { type: 'phase-started', runId: 'r1', phase: 'write' },
    {
      type: 'sample',
      runId: 'r1',
      phase: 'write',
      bytesDone: 1e9,
      totalBytes: 8e9,
      seconds: 1,
      bytesPerSecond: 1e9,
    },
    {
      type: 'file-done',
      runId: 'r1',
      index: 0,
      count: 2,
      file: file('write', 2e9, 2e9),
      rate: 1e9,
    },
    {
      type: 'sample',
      runId: 'r1',
      phase: 'write',
      bytesDone: 2e9,
      totalBytes: 8e9,
      seconds: 2,
      bytesPerSecond: 1e9,
    },
  ]);
  assert.equal(run.status, 'running');
  assert.equal(run.phase, 'write');
  assert.equal(run.filesDone, 1);
  assert.equal(progressFraction(run), 0.25);
  assert.equal(secondsLeft(run), 6);
  // A phase just begun (0.1 s on the run's clock) while the viewer's clock runs ahead: the run's
  // overall pace, not 10 MB over 2.5 s (25 min left, as a quick run turned to its read-back).
  const turned = {
    ...run,
    phaseStart: { seconds: 2, bytes: 2e9 },
    bytesDone: 2.01e9,
    seconds: 2.1,
  };
  assert.ok(Math.abs(secondsLeft(turned, 4.5)! - (8e9 - 2.01e9) / (2.01e9 / 4.5)) < 1e-6);
  assert.equal(bytesSoFar(run, 'write'), 2e9);
  assert.equal(run.currentRate, 1e9);
  assert.deepEqual(run.throughput, [
    { x: 1, y: 1e9 },
    { x: 2, y: 1e9 },
  ]);
});

test('reads do not count as bytes written', () => {
  const run = fold([
    { type: 'plan-started', runId: 'r1', plan: 'standard', target: '/tmp/x', files: 2, bytes: 4e9 },
    { type: 'phase-started', runId: 'r1', phase: 'write' },
    {
      type: 'file-done',
      runId: 'r1',
      index: 0,
      count: 1,
      file: file('write', 2e9, 2e9),
      rate: 1e9,
    },
    { type: 'phase-started', runId: 'r1', phase: 'read' },
    {
      type: 'sample',
      runId: 'r1',
      phase: 'read',
      bytesDone: 3e9,
      totalBytes: 4e9,
      seconds: 3,
      bytesPerSecond: 1e9,
    },
  ]);
  assert.equal(bytesSoFar(run, 'write'), 2e9);
  assert.equal(progressFraction(run), 0.75);
});

test('events of another run change nothing', () => {
  const start = newLiveRun('r1', 'standard', '/tmp/x');
  const after = applyBenchEvent(start, { type: 'cancelled', runId: 'other' });
  assert.equal(after, start);
});

test('queue runs fill the grid with the mean of their samples and line up end to end in time', () => {
  const run = fold([
    { type: 'phase-started', runId: 'r1', phase: 'queue' },
    {
      type: 'sample',
      runId: 'r1',
      phase: 'queue',
      run: 'SEQ1M Q8T1 read',
      bytesDone: 0,
      totalBytes: null,
      seconds: 0.5,
      bytesPerSecond: 1e9,
    },
    {
      type: 'sample',
      runId: 'r1',
      phase: 'queue',
      run: 'SEQ1M Q8T1 read',
      bytesDone: 0,
      totalBytes: null,
      seconds: 1,
      bytesPerSecond: 2e9,
    },
    {
      type: 'sample',
      runId: 'r1',
      phase: 'queue',
      run: 'RND4K Q1T1 read',
      bytesDone: 0,
      totalBytes: null,
      seconds: 0.5,
      bytesPerSecond: 4e7,
    },
  ]);
  assert.deepEqual(run.queueRuns, [
    { name: 'SEQ1M Q8T1 read', bytesPerSecond: 1.5e9, samples: 2, done: true },
    { name: 'RND4K Q1T1 read', bytesPerSecond: 4e7, samples: 1, done: false },
  ]);
  assert.deepEqual(
    run.throughput.map((p) => p.x),
    [0.5, 1, 1.5],
  );
  assert.equal(progressFraction(run), null);
});

test('the end of a run: finished carries the result, failed the error, cancelled only itself', () => {
  const base = fold([{ type: 'phase-started', runId: 'r1', phase: 'write' }]);
  const finished = applyBenchEvent(base, {
    type: 'finished',
    runId: 'r1',
    resultId: 'res-1',
    findings: [],
  });
  assert.equal(finished.status, 'finished');
  assert.equal(finished.resultId, 'res-1');
  assert.equal(progressFraction(finished), 1);
  assert.equal(secondsLeft(finished), null);
  const failed = applyBenchEvent(base, {
    type: 'failed',
    runId: 'r1',
    error: { code: 'ENOSPC', message: 'Not enough free space' },
  });
  assert.deepEqual([failed.status, failed.error?.code], ['failed', 'ENOSPC']);
  assert.equal(applyBenchEvent(base, { type: 'cancelled', runId: 'r1' }).status, 'cancelled');
  assert.ok(finished.version > base.version);
});

test('the preset grid pairs read and write per test, filling in as runs go', async () => {
  const { presetGrid, testName } = await import('../../../renderer/src/ui/result/presets-grid.js');
  const specs = [
    { name: 'SEQ1M Q8T1 read', op: 'read' as const, blockSize: 1 << 20 },
    { name: 'RND4K Q1T1 read', op: 'randread' as const, blockSize: 4096 },
    { name: 'SEQ1M Q8T1 write', op: 'write' as const, blockSize: 1 << 20 },
    { name: 'RND4K Q1T1 write', op: 'randwrite' as const, blockSize: 4096 },
  ];
  assert.equal(testName('RND4K Q32T1 write'), 'RND4K Q32T1');
  const live = presetGrid(specs, [
    { name: 'SEQ1M Q8T1 read', bytesPerSecond: 1.6e9, done: true },
    { name: 'RND4K Q1T1 read', bytesPerSecond: 4096e3, done: false },
  ]);
  assert.deepEqual(
    live.map((row) => [row.test, row.read?.state, row.write?.state]),
    [
      ['SEQ1M Q8T1', 'done', 'pending'],
      ['RND4K Q1T1', 'running', 'pending'],
    ],
  );
  assert.equal(live[1]!.read!.iops, 1000);
  const final = presetGrid(
    specs,
    [],
    [
      {
        name: 'SEQ1M Q8T1 write',
        op: 'write',
        blockSize: 1 << 20,
        queueDepth: 8,
        threads: 1,
        bytesPerSecond: 1.4e9,
        iops: 1335,
        latency: { p50: 0.006, p99: 0.01, p999: 0.02 },
        samples: [],
      },
    ],
  );
  assert.deepEqual([final[0]!.write!.state, final[0]!.write!.latencyP50], ['done', 0.006]);
});

test('small files that finish between samples still move progress and the rate', () => {
  const run = fold([
    { type: 'plan-started', runId: 'r1', plan: 'standard', target: '/tmp/x', files: 4, bytes: 8e6 },
    { type: 'phase-started', runId: 'r1', phase: 'write' },
    {
      type: 'file-done',
      runId: 'r1',
      index: 0,
      count: 2,
      file: file('write', 2e6, 2e6),
      rate: 5e8,
    },
    {
      type: 'file-done',
      runId: 'r1',
      index: 1,
      count: 2,
      file: file('write', 2e6, 4e6),
      rate: 4e8,
    },
  ]);
  assert.equal(run.bytesDone, 4e6);
  assert.equal(progressFraction(run), 0.5);
  assert.equal(run.currentRate, 4e8);
  assert.equal(secondsLeft(run), null, 'no time yet from samples');
  assert.equal(secondsLeft(run, 2), 2, 'the viewer clock gives the time');
});

test('a cliff found during the run is marked at once, and a revised or final one replaces it', () => {
  const cliff = (atBytes: number, cause: 'unknown' | 'cache') => ({
    kind: 'cliff' as const,
    phase: 'write' as const,
    atBytes,
    atSeconds: null,
    beforeRate: 2e9,
    afterRate: 0.5e9,
    confidence: 1,
    cause,
    reason: 'r',
    recoverySeconds: null,
    message: `at ${atBytes}`,
  });
  const small = {
    kind: 'small-files' as const,
    phase: 'write' as const,
    count: 3,
    thresholdBytes: 2e6,
    message: 'small',
  };
  let run = fold([
    { type: 'plan-started', runId: 'r1', plan: 'sustained', target: '/t', files: null, bytes: 8e9 },
    { type: 'finding', runId: 'r1', finding: cliff(2e9, 'unknown') },
  ]);
  assert.deepEqual(
    cliffMarks(run.findings).map((m) => m.atBytes),
    [2e9],
  );
  run = fold(
    [
      { type: 'finding', runId: 'r1', finding: cliff(2.4e9, 'unknown') },
      { type: 'finding', runId: 'r1', finding: small },
      { type: 'finding', runId: 'r1', finding: cliff(2.1e9, 'cache') },
    ],
    run,
  );
  assert.deepEqual(
    run.findings.map((f) => f.message),
    ['small', 'at 2100000000'],
  );
  assert.deepEqual(
    cliffMarks(run.findings).map((m) => [m.atBytes, m.label]),
    [[2.1e9, 'Cache cliff']],
  );
});

test('a run picked up after a reload draws as it stood, and follows on', () => {
  const files = [file('write', 1e9, 1e9), file('write', 2e9, 3e9)];
  const snapshot: RunningBench = {
    runId: 'r9',
    jobId: 'j9',
    plan: null,
    planName: 'sustained',
    target: '/t',
    request: { path: '/t', scale: 0.01, buffered: false, keepFiles: false },
    startedAt: '2025-01-01T00:00:00.000Z',
    phase: 'write',
    plannedFiles: null,
    // More files than the snapshot keeps: the counts come from the engine, not the list.
    filesDone: 40,
    fileBytesDone: 41e9,
    bytesDone: 41.5e9,
    totalBytes: 80e9,
    seconds: 30,
    currentRate: 1e9,
    files,
    samples: [
      { phase: 'write', seconds: 29, bytesPerSecond: 1.1e9 },
      { phase: 'write', seconds: 30, bytesPerSecond: 1e9 },
    ],
    findings: [],
    notices: ['Removed an old folder.'],
  };
  let run = liveRunFromSnapshot(snapshot);
  assert.equal(run.runId, 'r9');
  assert.equal(run.status, 'running');
  assert.equal(run.phase, 'write');
  assert.equal(run.filesDone, 40);
  assert.equal(run.bytesDone, 41.5e9);
  assert.equal(progressFraction(run), 41.5e9 / 80e9);
  assert.deepEqual(
    run.throughput.map((p) => p.x),
    [29, 30],
  );
  assert.equal(run.files.length, 2);
  assert.deepEqual(run.notices, ['Removed an old folder.']);

  // The events after bench.running's reply (those before are in the snapshot).
  const fresh: BenchEvent[] = [
    {
      type: 'sample',
      runId: 'r9',
      phase: 'write',
      bytesDone: 42e9,
      totalBytes: 80e9,
      seconds: 31,
      bytesPerSecond: 1e9,
    },
    {
      type: 'file-done',
      runId: 'r9',
      index: 40,
      count: null,
      file: file('write', 1e9, 42e9),
      rate: 1e9,
    },
    { type: 'cancelled', runId: 'r9' },
  ];
  run = fold(fresh, run);
  assert.equal(run.filesDone, 41);
  assert.equal(run.files.length, 3);
  assert.equal(run.status, 'cancelled');
});
