/**
 * The live rate-against-bytes curve: built from the run's events by the analysis's own windowing
 * rule, held in growing typed columns, thinned for drawing without losing a dip or a spike, and
 * fast enough at a million samples to redraw every frame. The big figures: one per direction the
 * plan has, none for one it does not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { performance } from 'node:perf_hooks';
import type { BenchEvent } from '../../../app/contract/bench-events.js';
import type { FileRecord } from '../../../app/contract/bench-result.js';
import type { Plan } from '../../../app/contract/plan.js';
import { sampleRates, SampleRateCurve } from '../../../app/common/sample-rates.js';
import { decimateMinMax } from '../../../app/common/decimate.js';
import {
  applyBenchEvent,
  newLiveRun,
  type LiveRun,
} from '../../../renderer/src/screens/bench/live-run.js';
import { liveRunFromSnapshot } from '../../../renderer/src/screens/bench/live-snapshot.js';
import { LivePhaseSamples } from '../../../renderer/src/screens/bench/live-samples.js';
import {
  directionFigure,
  gridSecondsLeft,
  planDirections,
} from '../../../renderer/src/screens/bench/live-figures.js';
import { cliffMarks, cumulativeCurve } from '../../../renderer/src/ui/result/series.js';
import { overlaySeries } from '../../../renderer/src/ui/result/compare.js';
import { builtinPlan } from '../../../app/core/bench/builtin-plans.js';
import { baseSeed, between, seededRandom } from '../../helpers/synthetic-samples.js';
import { resultDocument } from './bench-fixtures.js';

const seed = baseSeed();
const GB = 1e9;

interface Simulated {
  events: BenchEvent[];
  /** The samples as the native side times them: phase seconds, phase bytes, file index. */
  native: { t: number[]; bytes: number[]; file: number[] };
  files: FileRecord[];
}

/**
 * A write phase on a drive that writes `fast` bytes/s for its first `cliff` bytes and `slow` after,
 * in files of random sizes, with progress every 0.1 s inside each file and a pause between files;
 * the events a run would send, and the samples as timed natively.
 */
function simulate(random: () => number, cliff: number, fast: number, slow: number): Simulated {
  const events: BenchEvent[] = [
    {
      type: 'plan-started',
      runId: 'r1',
      plan: 'sustained',
      target: '/x',
      files: null,
      bytes: null,
    },
    { type: 'phase-started', runId: 'r1', phase: 'write' },
  ];
  const native: Simulated['native'] = { t: [], bytes: [], file: [] };
  const files: FileRecord[] = [];
  let written = 0;
  let now = 0.02;
  for (let index = 0; written < 2.5 * cliff; index += 1) {
    const size = Math.round(between(random, 0.05, 0.6) * GB);
    const start = now;
    let done = 0;
    let fileSeconds = 0;
    native.t.push(start);
    native.bytes.push(written);
    native.file.push(index);
    while (done < size) {
      const rate = (written + done < cliff ? fast : slow) * between(random, 0.9, 1.1);
      const step = Math.min(size - done, Math.round(rate * 0.1));
      done += step;
      fileSeconds += step / rate;
      native.t.push(start + fileSeconds);
      native.bytes.push(written + done);
      native.file.push(index);
      if (done < size)
        events.push({
          type: 'sample',
          runId: 'r1',
          phase: 'write',
          bytesDone: written + done,
          totalBytes: null,
          seconds: start + fileSeconds + 0.003 * random(), // the event's clock: late by a little
          bytesPerSecond: done / fileSeconds,
        });
    }
    written += size;
    now = start + fileSeconds + 0.01 + 0.05 * random();
    const file: FileRecord = {
      phase: 'write',
      bytes: size,
      seconds: fileSeconds,
      cumulativeBytes: written,
      t: now,
      temperatureC: null,
    };
    files.push(file);
    events.push({ type: 'file-done', runId: 'r1', index, count: null, file, rate: null });
  }
  return { events, native, files };
}

test('the live curve is the analysis curve of the same samples, and shows the cliff', () => {
  const random = seededRandom(seed);
  const cliff = between(random, 1, 4) * GB;
  const fast = between(random, 0.5, 3) * GB;
  const slow = fast * between(random, 0.1, 0.5);
  const { events, native } = simulate(random, cliff, fast, slow);
  const live = events.reduce(applyBenchEvent, newLiveRun('r1', 'sustained', '/x'));
  const samples = live.rates.write!;
  const expected = sampleRates(native);
  const curve = samples.curve.curve();
  assert.equal(curve.rate.length, expected.rate.length, `seed ${seed}`);
  for (let i = 0; i < curve.rate.length; i += 1) {
    assert.ok(
      Math.abs(curve.rate[i]! / expected.rate[i]! - 1) < 1e-6,
      `rate ${i}: ${curve.rate[i]} ${expected.rate[i]} ${curve.bytes[i]} ${expected.bytes[i]} ${curve.seconds[i]} ${expected.seconds[i]}, seed ${seed}`,
    );
    assert.ok(Math.abs(curve.bytes[i]! - expected.bytes[i]!) < 1, `bytes ${i}, seed ${seed}`);
  }
  // Well before and after the cliff, the windowed rate is the drive's, within its 10 % noise.
  const at = (bytes: number) => curve.rate[curve.bytes.findIndex((b) => b >= bytes)]!;
  assert.ok(Math.abs(at(cliff * 0.5) / fast - 1) < 0.1, `fast ${at(cliff * 0.5)} ${fast}`);
  assert.ok(Math.abs(at(cliff * 2) / slow - 1) < 0.1, `slow ${at(cliff * 2)} ${slow}`);
  assert.equal(samples.bytesSoFar, native.bytes.at(-1));
  // A page that reconnects rebuilds the curve from the files: one point per file, at its rate.
  const again = liveRunFromSnapshot({
    ...snapshotOf(live),
    files: live.files,
  });
  assert.equal(again.rates.write!.points, live.files.length);
});

function snapshotOf(live: LiveRun) {
  return {
    runId: live.runId,
    jobId: live.runId,
    plan: null,
    planName: live.planName,
    target: live.target,
    request: { path: '/x', scale: 1, buffered: false, keepFiles: false },
    startedAt: new Date().toISOString(),
    phase: 'write' as const,
    plannedFiles: null,
    filesDone: live.filesDone,
    fileBytesDone: live.fileBytesDone,
    bytesDone: live.bytesDone,
    totalBytes: null,
    seconds: 10,
    currentRate: null,
    files: [],
    samples: [],
    findings: [],
    notices: [],
  };
}

test('a million samples: columns grow by doubling, each redraw thins them in well under a frame', () => {
  const random = seededRandom(seed);
  const samples = new LivePhaseSamples();
  const n = 1_000_000;
  let bytes = 0;
  let t = 0;
  const spikeAt = Math.floor(between(random, 0.2, 0.8) * n);
  const dipAt = Math.floor(between(random, 0.2, 0.8) * n);
  const append = (count: number) => {
    for (let k = 0; k < count; k += 1) {
      const i = samples.points + 1;
      const rate = (i === spikeAt ? 9 : i === dipAt ? 0.01 : between(random, 0.9, 1.1)) * GB;
      const step = 0.025 * GB;
      bytes += step;
      t += step / rate;
      samples.curve.push(t, bytes, 0);
    }
  };
  // Growing in uneven steps, the kept slices are exactly what thinning from scratch gives.
  const pushStarted = performance.now();
  while (samples.points < n - 1) {
    append(Math.min(n - 1 - samples.points, Math.floor(between(random, 1, 60_000))));
    const drawn = samples.drawn(800);
    const fresh = new LivePhaseSamples();
    Object.assign(fresh, { curve: samples.curve });
    assert.deepEqual(drawn, fresh.drawn(800), `at ${samples.points} samples, seed ${seed}`);
    assert.ok(drawn.length <= 1600, `${drawn.length} points drawn`);
  }
  const pushMs = performance.now() - pushStarted;
  const curve = samples.curve.curve();
  let low = Infinity;
  let high = -Infinity;
  for (const r of curve.rate) {
    low = Math.min(low, r);
    high = Math.max(high, r);
  }
  // Frames as a live run makes them: a few samples arrive, the chart redraws.
  const times: number[] = [];
  let drawn = samples.drawn(800);
  for (let frame = 0; frame < 60; frame += 1) {
    append(5);
    const started = performance.now();
    drawn = samples.drawn(800);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[times.length >> 1]!;
  const wholeStarted = performance.now();
  const whole = decimateMinMax(curve.bytes, curve.rate, 800);
  const wholeMs = performance.now() - wholeStarted;
  console.log(
    `# ${samples.points} samples (built and checked in ${pushMs.toFixed(0)} ms): a live redraw thins them to ${drawn.length} points in ${median.toFixed(3)} ms (median of 60 frames, worst ${times.at(-1)!.toFixed(2)} ms); thinning all at once (result page) ${wholeMs.toFixed(1)} ms`,
  );
  assert.ok(drawn.length <= 1600 && drawn.length >= 800, `${drawn.length} points drawn`);
  assert.ok(whole.x.length <= 1600 && whole.x.length >= 800, `${whole.x.length} points`);
  for (let i = 1; i < drawn.length; i += 1) assert.ok(drawn[i]!.x >= drawn[i - 1]!.x);
  // The spike and the dip survive thinning: the drawn extremes are the curve's.
  assert.equal(Math.max(...drawn.map((p) => p.y)), high);
  assert.equal(Math.min(...drawn.map((p) => p.y)), low);
  assert.equal(Math.max(...whole.y), high);
  assert.equal(Math.min(...whole.y), low);
  // The target is 8 ms a redraw; a frame at 60 Hz is 16 ms.
  assert.ok(median < 8, `thinning a million samples took ${median.toFixed(1)} ms a frame`);
});

test('decimation keeps every slice’s extremes, log slices leave out x ≤ 0, a short curve is copied', () => {
  const x = Float64Array.from({ length: 5000 }, (_, i) => i);
  const y = Float64Array.from({ length: 5000 }, (_, i) => Math.sin(i / 7) * (i % 13));
  const thin = decimateMinMax(x, y, 100);
  assert.ok(thin.x.length <= 200);
  for (let slice = 0; slice < 100; slice += 1) {
    const inside = [...y.subarray(slice * 50, slice * 50 + 50)];
    const kept = [...thin.y].filter((_, i) => Math.floor(thin.x[i]! / 50) === slice);
    assert.equal(Math.max(...kept), Math.max(...inside), `slice ${slice}`);
    assert.equal(Math.min(...kept), Math.min(...inside), `slice ${slice}`);
  }
  const log = decimateMinMax([0, 1, 10, 100], [5, 1, 2, 3], 1, { log: true });
  assert.deepEqual([...log.x], [1, 100]);
  assert.deepEqual([...decimateMinMax([1, 2], [3, 4], 5).y], [3, 4]);
  assert.deepEqual([...decimateMinMax([1, 2, 3], [3, 4, 5], 5, { count: 2 }).x], [1, 2]);
});

test('the windowed rate leaves gaps between files out and goes back on nothing', () => {
  const curve = new SampleRateCurve(1, null, 1);
  assert.equal(curve.push(0, 0, 0), true);
  curve.push(1, 100, 0);
  curve.push(5, 100, 1); // a new file after a 4 s gap: no point
  curve.push(6, 300, 1);
  assert.equal(curve.push(5.5, 400, 1), false, 'a sample that goes back is left out');
  assert.deepEqual([...curve.curve().rate], [100, 200]);
});

test('big figures: one per direction the plan has, now, done or next', () => {
  const plan = (name: string) => builtinPlan(name) as Plan;
  assert.deepEqual(planDirections(plan('sustained')), ['write']);
  assert.deepEqual(planDirections(plan('standard')), ['write', 'read']);
  assert.deepEqual(planDirections(null), ['read']);
  const grid = plan('presets');
  assert.deepEqual(planDirections(grid), ['write', 'read']);

  const random = seededRandom(seed);
  const { events } = simulate(random, 1 * GB, 1 * GB, 0.5 * GB);
  let live = events.reduce(applyBenchEvent, newLiveRun('r1', 'standard', '/x'));
  const writing = directionFigure(live, plan('standard'), 'write');
  assert.equal(writing.state, 'now');
  assert.ok(writing.rate! > 0.4 * GB && writing.rate! < 0.6 * GB, `${writing.rate}`);
  assert.equal(directionFigure(live, plan('standard'), 'read').state, 'next');
  live = applyBenchEvent(live, { type: 'phase-started', runId: 'r1', phase: 'read' });
  const written = directionFigure(live, plan('standard'), 'write');
  assert.equal(written.state, 'done');
  assert.match(written.note, /^average of .* written$/);
  assert.equal(directionFigure(live, plan('standard'), 'read').state, 'now');
});

test('the result page draws stored samples as a thinned line, per-file points without them', () => {
  const random = seededRandom(seed);
  const { native, files } = simulate(random, 2 * GB, 2 * GB, 0.4 * GB);
  const v1 = resultDocument('v1', files);
  const perFile = cumulativeCurve(v1, 'write');
  assert.equal(perFile.points.length, files.length);
  assert.equal(perFile.line, undefined);
  const v2 = { ...v1, samplesByPhase: { write: native } };
  const sampled = cumulativeCurve(v2, 'write', 100);
  assert.equal(sampled.line, true);
  assert.equal(sampled.samples, sampleRates(native).rate.length);
  assert.ok(sampled.points.length <= 200);
  const broken = {
    ...v1,
    samplesByPhase: { write: { t: [0, 2, 1], bytes: [0, 1, 2], file: [0, 0, 0] } },
  };
  assert.equal(cumulativeCurve(broken, 'write').points.length, files.length);

  // The compare view draws each run the same way: the sampled one as its line, the other per file.
  const [withSamples, perFileRun] = overlaySeries([v2, v1], 'cumulative', ['write']);
  assert.deepEqual(
    { line: withSamples!.line, samples: withSamples!.samples, points: withSamples!.points },
    {
      line: true,
      samples: sampled.samples,
      points: cumulativeCurve(v2, 'write').points,
    },
  );
  assert.equal(perFileRun!.line, undefined);
  assert.equal(perFileRun!.points.length, files.length);
});

test('every step of a drop found on samples is marked where the finding puts it', () => {
  const base = {
    kind: 'cliff' as const,
    phase: 'write' as const,
    message: 'The write rate was 7 GB/s for the first 592 GB, then …',
    atBytes: 592e9,
    atSeconds: 85,
    beforeRate: 7e9,
    afterRate: 2.2e9,
    confidence: 0.9,
    cause: 'cache' as const,
    reason: '',
    recoverySeconds: null,
  };
  const steps = [
    { atBytes: 0, atSeconds: 0, rate: 7e9 },
    { atBytes: 592e9, atSeconds: 85, rate: 2.2e9 },
    { atBytes: 1.4e12, atSeconds: 450, rate: 1e9 },
  ];
  const marks = cliffMarks([{ ...base, steps }]);
  assert.deepEqual(
    marks.map((m) => [m.atBytes, m.beforeRate, m.afterRate, m.label]),
    [
      [592e9, 7e9, 2.2e9, 'Cache cliff'],
      [1.4e12, 2.2e9, 1e9, 'Slower again'],
    ],
  );
  // One drop, or steps that cannot be read: the finding's own place.
  assert.deepEqual(
    cliffMarks([{ ...base, steps: steps.slice(0, 2) }]).map((m) => m.atBytes),
    [592e9],
  );
  assert.deepEqual(
    cliffMarks([{ ...base, steps: [{}, {}, {}] as unknown as typeof steps }]).map((m) => m.atBytes),
    [592e9],
  );
});

test('a grid counts down by its runs, at the length the finished ones took', () => {
  const grid = builtinPlan('presets') as Plan & { kind: 'presets' };
  const queue = (name: string, seconds: number): BenchEvent => ({
    type: 'sample',
    runId: 'r1',
    phase: 'queue',
    bytesDone: 0,
    totalBytes: null,
    seconds,
    bytesPerSecond: 1e9,
    run: name,
  });
  let live = newLiveRun('r1', 'presets', '/x');
  live = applyBenchEvent(live, { type: 'phase-started', runId: 'r1', phase: 'queue' });
  assert.equal(gridSecondsLeft(live, grid, 0.1), grid.runs.length * 0.5);
  for (const s of [0.5, 1, 1.5, 2]) live = applyBenchEvent(live, queue(grid.runs[0]!.name, s));
  live = applyBenchEvent(live, queue(grid.runs[1]!.name, 0.5));
  // One run took 2 s; the second has run 0.5 s of its 2; the rest are still to come.
  assert.equal(gridSecondsLeft(live, grid, 0.1), (grid.runs.length - 1) * 2 - 0.5);
  assert.equal(gridSecondsLeft(live, builtinPlan('standard') as Plan), null);
});
