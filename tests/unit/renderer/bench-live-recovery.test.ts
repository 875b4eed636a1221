/**
 * The recovery as the live view shows it (issue 23: "Timing the recovery: 100 %, 0.0 s left" for
 * 30 s): the rest before each probe is a wait with its own time left, no bar stands at 100 % while
 * the run goes on, and a reloaded page picks the rest up where it stands.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningBench } from '../../../app/contract/bench.js';
import type { BenchEvent } from '../../../app/contract/bench-events.js';
import { RunTracker } from '../../../app/core/bench/run-tracker.js';
import {
  applyBenchEvent,
  newLiveRun,
  progressFraction,
  secondsLeft,
  type LiveRun,
} from '../../../renderer/src/screens/bench/live-run.js';
import { recoveryStep } from '../../../renderer/src/screens/bench/live-recovery.js';
import { liveRunFromSnapshot } from '../../../renderer/src/screens/bench/live-snapshot.js';

const GB = 1e9;
const fold = (events: BenchEvent[], start = newLiveRun('r1', 'sustained', '/mnt')): LiveRun =>
  events.reduce(applyBenchEvent, start);

/** A sustained run whose 1.2 GB of writing is done, as the engine reports it. */
const written: BenchEvent[] = [
  {
    type: 'plan-started',
    runId: 'r1',
    plan: 'sustained',
    target: '/mnt',
    files: null,
    bytes: 1.2e9,
  },
  { type: 'phase-started', runId: 'r1', phase: 'write' },
  {
    type: 'sample',
    runId: 'r1',
    phase: 'write',
    bytesDone: 1.2e9,
    totalBytes: 1.2e9,
    seconds: 4,
    bytesPerSecond: 0.3e9,
  },
  { type: 'phase-started', runId: 'r1', phase: 'recovery' },
];
const wait: BenchEvent = {
  type: 'wait',
  runId: 'r1',
  seconds: 30,
  atSeconds: 4.5,
  probe: 0,
  maxProbes: 20,
  probeBytes: 1.85 * GB,
};

test('all the bytes planned are written, and no bar says 100 % while the run goes on', () => {
  const writing = fold(written.slice(0, 3));
  assert.equal(progressFraction(writing), 0.99);
  assert.equal(progressFraction(fold(written)), null, 'the recovery has no share of the run');
  assert.equal(secondsLeft(fold(written), 10), null, 'nor a time left of its own bytes');
});

test('the rest before a probe is a wait with its own time left, then the probe its own share', () => {
  const resting = fold([...written, wait]);
  const at = (elapsed: number) => recoveryStep(resting, elapsed);
  assert.deepEqual(at(4.5), {
    kind: 'rest',
    text: 'Resting the disk so its cache can empty: 30 s left, then probe 1 of at most 20',
    fraction: 0,
    secondsLeft: 30,
  });
  assert.equal(at(19.5)?.secondsLeft, 15);
  assert.equal(at(19.5)?.fraction, 0.5);
  assert.equal(at(34.4)?.fraction, 0.99, 'never shown done while it goes on');
  assert.deepEqual([at(35)?.kind, at(35)?.fraction], ['probe', 0], 'the rest over: the probe');
  const probing = applyBenchEvent(resting, {
    type: 'sample',
    runId: 'r1',
    phase: 'recovery',
    bytesDone: 1.2e9 + 0.925 * GB,
    totalBytes: null,
    seconds: 36,
    bytesPerSecond: 0.3e9,
  });
  assert.deepEqual(recoveryStep(probing, 36), {
    kind: 'probe',
    text: 'Writing probe 1 of at most 20 (1.85 GB) to see if the rate is back',
    fraction: 0.5,
    secondsLeft: null,
  });
  const next = applyBenchEvent(probing, { ...wait, probe: 1, atSeconds: 42 });
  assert.equal(recoveryStep(next, 43)?.text.endsWith('then probe 2 of at most 20'), true);
  const done = applyBenchEvent(next, {
    type: 'finished',
    runId: 'r1',
    resultId: 'x',
    findings: [],
  });
  assert.equal(recoveryStep(done), null);
});

test('a page reloaded during a rest picks the rest up from bench.running', () => {
  const tracker = new RunTracker({
    runId: 'r1',
    jobId: 'j1',
    plan: null,
    planName: 'sustained',
    target: '/mnt',
    request: { path: '/mnt', scale: 1, buffered: false, keepFiles: false },
  });
  for (const event of [...written, wait]) tracker.apply(event);
  const snapshot: RunningBench = tracker.snapshot();
  assert.deepEqual(snapshot.recoveryWait, {
    seconds: 30,
    atSeconds: 4.5,
    probe: 0,
    maxProbes: 20,
    probeBytes: 1.85 * GB,
  });
  const live = liveRunFromSnapshot({ ...snapshot, seconds: 10.5 });
  assert.equal(recoveryStep(live, 10.5)?.secondsLeft, 24);
  assert.equal(progressFraction(live), null);
});
