import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cacheCliff } from '../../../app/core/analysis/cache-cliff.js';
import { deliveryBlocks } from '../../../app/core/analysis/delivery-blocks.js';
import { transferCurve } from '../../../app/core/analysis/transfer-curve.js';
import { decimateMinMax } from '../../../app/common/decimate.js';
import { findings } from '../../../app/core/analysis/findings.js';
import { pelt, peltChunked } from '../../../app/core/analysis/pelt.js';
import { sampleIntervals } from '../../../app/common/phase-samples.js';
import { rateShape } from '../../../app/core/analysis/rate-shape.js';
import { probeRecovery } from '../../../app/core/analysis/recovery-time.js';
import { sampleRates } from '../../../app/common/sample-rates.js';
import {
  baseSeed,
  between,
  fileRecords,
  logBetween,
  normal,
  seededRandom,
  sustainedPlan,
  sustainedStream,
} from '../../helpers/synthetic-samples.js';

const seed = baseSeed();
const GB = 1e9;

describe('sampleIntervals', () => {
  it('keeps the stretches inside files and leaves the gaps between them out', () => {
    const intervals = sampleIntervals({
      t: [0, 1, 2, 2.5, 3.5],
      bytes: [0, 100, 200, 200, 300],
      file: [0, 0, 0, 1, 1],
    });
    assert.deepEqual([...intervals.seconds], [1, 1, 1]);
    assert.deepEqual([...intervals.startSeconds], [0, 1, 2.5]);
    assert.equal(intervals.totalBytes, 300);
  });
  it('keeps a held write as transfer time, and bytes within one clock tick', () => {
    // A throttle held the second chunk 80 ms with no bytes moved; two chunks ended in one 0.1 ms
    // tick. Dropping either would read the stretch faster than the drive moved it.
    const intervals = sampleIntervals({
      t: [0, 0.01, 0.09, 0.09, 0.1],
      bytes: [0, 4, 4, 8, 12],
      file: [0, 0, 0, 0, 0],
    });
    assert.deepEqual(
      [...intervals.seconds].map((s) => +s.toFixed(3)),
      [0.01, 0.08, 0.01],
    );
    assert.deepEqual([...intervals.bytes], [4, 4, 4]);
    assert.deepEqual([...intervals.startBytes], [0, 4, 8]);
  });
  it('names the first bad sample', () => {
    assert.throws(
      () => sampleIntervals({ t: [0, 2, 1], bytes: [0, 1, 2] }),
      /sample 2 goes back.*never decreasing/,
    );
    assert.throws(() => sampleIntervals({ t: [0, 1], bytes: [0] }), /2 times but 1 byte counts/);
  });
});

describe('pelt', () => {
  it('finds the exact change points of a piecewise constant series, and none in a flat one', () => {
    const random = seededRandom(seed);
    const levels = [3, 1, 2, 0.5];
    const starts = [0, 40, 55, 120];
    const values = Float64Array.from({ length: 200 }, (_, i) => {
      const k = starts.findLastIndex((s) => s <= i);
      return levels[k]! + 0.05 * normal(random);
    });
    assert.deepEqual(pelt(values, 4, 6 * 0.05 ** 2 * Math.log(200)), starts, `seed ${seed}`);
    const flat = Float64Array.from({ length: 200 }, () => 0.05 * normal(random));
    assert.deepEqual(pelt(flat, 4, 6 * 0.05 ** 2 * Math.log(200)), [0], `seed ${seed}`);
    assert.deepEqual(pelt(values.subarray(0, 7), 4, 0), [0]);
  });
  it('in chunks, finds the same changes plus the chunk starts, wherever the changes fall', () => {
    const random = seededRandom(seed);
    // Changes drawn anywhere, at least 8 apart, some next to a chunk start.
    const starts = [0];
    while (starts.at(-1)! < 2900) starts.push(starts.at(-1)! + 8 + Math.floor(random() * 400));
    starts.pop();
    starts.push(997, 1004);
    starts.sort((a, b) => a - b);
    const kept = starts.filter((s, i) => i === 0 || s - starts[i - 1]! >= 8);
    const levels = kept.map((_, k) => (k % 2 === 0 ? 1 : 0));
    const values = Float64Array.from({ length: 3000 }, (_, i) => {
      const k = kept.findLastIndex((s) => s <= i);
      return levels[k]! + 0.05 * normal(random);
    });
    const penalty = 6 * 0.05 ** 2 * Math.log(3000);
    const found = peltChunked(values, 4, penalty, 1000);
    // A change closer to a chunk start than the shortest segment (4) cannot be placed in its
    // chunk: the chunk start stands for it (rateSegments places it again on the samples).
    const near = (list: number[], i: number) => list.some((s) => Math.abs(s - i) < 4);
    for (const change of kept) assert.ok(near(found, change), `seed ${seed}: ${change} missed`);
    // When a change falls just inside a chunk, the chunk's first segment (at least 4 long) holds
    // a point or more of the old level, and a split may be found up to one more shortest segment
    // on (seed 750782377: a change at 2001, a split at 2005). rateSegments places it again.
    const chunkEdge = (start: number) =>
      [1000, 2000].some(
        (edge) =>
          start - edge >= 0 && start - edge < 8 && kept.some((s) => s >= edge && s < edge + 4),
      );
    for (const start of found)
      assert.ok(
        near([...kept, 1000, 2000], start) || chunkEdge(start),
        `seed ${seed}: ${start} is no change`,
      );
    assert.ok(found.includes(1000) && found.includes(2000), `seed ${seed}: chunk starts kept`);
  });
});

describe('sampleRates', () => {
  it('is bytes over transfer time, not counting the gaps between files', () => {
    const curve = sampleRates(
      { t: [0, 1, 2, 10, 11, 12], bytes: [0, 5, 10, 10, 15, 20], file: [0, 0, 0, 1, 1, 1] },
      1.5,
      null,
      1,
    );
    assert.deepEqual([...curve.rate], [5, 5, 5, 5]);
    // The middle of each window, whose stretches may lie in two files.
    assert.deepEqual([...curve.bytes], [2.5, 5, 10, 15]);
  });
  it('is steadier over a window than between single pairs of samples', () => {
    const random = seededRandom(seed);
    const t = [0];
    const bytes = [0];
    for (let i = 1; i < 2000; i += 1) {
      t.push(t[i - 1]! + 0.25 * Math.exp(0.1 * normal(random)));
      bytes.push(i * 0.25e9);
    }
    const spread = (rates: Float64Array) => {
      const logs = [...rates].map((r) => Math.log(r / 1e9)).sort((a, b) => a - b);
      return logs[Math.floor(logs.length * 0.9)]! - logs[Math.floor(logs.length * 0.1)]!;
    };
    const pairs = spread(sampleRates({ t, bytes }, 0, null, 1).rate);
    const windowed = spread(sampleRates({ t, bytes }, 1, null, 1).rate);
    // Four intervals a window: half the spread of one.
    assert.ok(windowed < 0.6 * pairs, `seed ${seed}: ${windowed} against ${pairs}`);
  });
  it('draws a step in a quick run where it happened, not as a running average decaying', () => {
    // A quick sustained run: half a gigabyte in under a second, in files of 2–20 MB sampled
    // every half megabyte, a drop drawn at random in its middle part.
    const random = seededRandom(seed);
    const total = 500e6;
    const stepAt = total * (0.2 + 0.6 * random());
    const fast = 1e9 * (1 + 2 * random());
    const slow = fast * (0.2 + 0.5 * random());
    const t = [0];
    const bytes = [0];
    const file = [0];
    let inFile = 0;
    let fileBytes = 2e6 * Math.exp(random() * Math.log(10));
    while (bytes.at(-1)! < total) {
      const before = bytes.at(-1)!;
      const rate = before < stepAt ? fast : slow;
      const step = Math.min(0.5e6, fileBytes - inFile);
      t.push(t.at(-1)! + (step / rate) * Math.exp(0.1 * normal(random)));
      bytes.push(before + step);
      file.push(file.at(-1)!);
      inFile += step;
      if (inFile >= fileBytes) {
        // The next file: a gap of a few milliseconds that is not transfer time.
        t.push(t.at(-1)! + 0.005);
        bytes.push(bytes.at(-1)!);
        file.push(file.at(-1)! + 1);
        inFile = 0;
        fileBytes = 2e6 * Math.exp(random() * Math.log(10));
      }
    }
    const curve = sampleRates({ t, bytes, file });
    // Where the curve falls through the middle of the two rates: the split with the fewest points
    // on the wrong side of it. Not the first point below the middle: with a drop of 30 % and
    // windows of a few intervals, one point in a few hundred dips that far by noise alone.
    const middle = Math.sqrt(fast * slow);
    let wrong = curve.rate.filter((rate) => rate < middle).length;
    let fewest = wrong;
    let split = 0;
    curve.rate.forEach((rate, i) => {
      wrong += rate < middle ? 1 : -1;
      if (wrong < fewest) [fewest, split] = [wrong, i + 1];
    });
    const crossing = curve.endBytes[Math.min(split, curve.rate.length - 1)]!;
    assert.ok(
      Math.abs(crossing - stepAt) < 0.05 * total,
      `seed ${seed}: drawn ${fast.toExponential(2)} → ${slow.toExponential(2)} B/s at ${(stepAt / 1e6).toFixed(0)} MB, the curve falls through the middle at ${(crossing / 1e6).toFixed(0)} MB`,
    );
    const before = [...curve.rate].filter(
      (_, i) => curve.endBytes[i]! > 0.05 * total && curve.endBytes[i]! < stepAt - 0.05 * total,
    );
    assert.ok(
      before.every((rate) => Math.abs(rate / fast - 1) < 0.25),
      `seed ${seed}: before the step`,
    );
  });
});

describe('decimateMinMax', () => {
  it('keeps every slice’s lowest and highest point, in order, at most two a slice', () => {
    const random = seededRandom(seed);
    const n = 100_000;
    const x = Float64Array.from({ length: n }, (_, i) => i * 1e6);
    const y = Float64Array.from({ length: n }, () => 1e9 * Math.exp(0.2 * normal(random)));
    const dip = Math.floor(random() * n);
    y[dip] = 1;
    const drawn = decimateMinMax(x, y, 500);
    assert.ok(drawn.x.length <= 1000 && drawn.x.length >= 500, `${drawn.x.length} points`);
    for (let i = 1; i < drawn.x.length; i += 1) assert.ok(drawn.x[i]! >= drawn.x[i - 1]!);
    assert.ok(drawn.y.includes(1), `seed ${seed}: the dip at ${dip} was lost`);
    assert.equal(Math.max(...drawn.y), Math.max(...y));
    // Each slice of 200 points keeps its own extremes.
    const slice = 137;
    const slices = y.subarray(slice * 200, slice * 200 + 200);
    assert.ok(drawn.y.includes(Math.min(...slices)) && drawn.y.includes(Math.max(...slices)));
  });
});

describe('probeRecovery', () => {
  it('times the recovery from the probes’ samples: a probe that falls inside is not recovered', () => {
    for (let draw = 0; draw < 30; draw += 1) {
      const where = `seed ${seed + draw}`;
      const random = seededRandom(seed + draw);
      const fast = logBetween(random, 0.5 * GB, 7 * GB);
      const slow = fast * between(random, 0.1, 0.5);
      // A full cache empties at this many bytes a second of rest (seed 003: 50 GB in 4 minutes).
      const emptying = logBetween(random, 0.01 * GB, 0.2 * GB);
      const { idleSeconds, probeBytes, maxProbes } = sustainedPlan.recovery!;
      const probes = Array.from({ length: maxProbes }, (_, i) => {
        const idle = idleSeconds * (i + 1);
        const free = emptying * idle;
        const samples = sustainedStream({
          random,
          totalBytes: probeBytes,
          drive: (bytes) => (bytes < free ? fast : slow),
          noise: 0.05,
          stallChance: 0,
        });
        return { idleSeconds: idle, samples, free };
      });
      const result = probeRecovery(probes, fast);
      const first = probes.find((p) => p.free >= probeBytes * 1.05);
      const truth = probes.find((p) => p.free >= probeBytes);
      // A probe whose last few % ran slow is within the noise: judge only clear cases, where the
      // probe before the recovery still fell at least 5 % before its end.
      const before = first ? probes[probes.indexOf(first) - 1] : undefined;
      const clear = !before || before.free <= probeBytes * 0.95;
      if (first && truth === first && clear)
        assert.equal(
          result.recoverySeconds,
          first.idleSeconds,
          `${where}: ${result.recoverySeconds}`,
        );
      if (!truth) assert.equal(result.recoverySeconds, null, where);
      result.probes.forEach((reading, i) => {
        const free = Math.min(probes[i]!.free, probeBytes);
        // Judged where the fast part lasts a quarter second (the sampler's period) at least: a
        // 0.07 s start at 6 GB/s is measured within 10 % only by chance.
        if (free < 0.9 * probeBytes && free > 0.1 * probeBytes && free / fast >= 0.25) {
          assert.equal(reading.recovered, false, `${where}: probe ${i}`);
          assert.ok(
            Math.abs(reading.fastBytes - free) <= 0.05 * probeBytes,
            `${where}: probe ${i} fast for ${reading.fastBytes} not ${free}`,
          );
        }
      });
    }
  });
});

describe('probeRecovery with a cache smaller than the probe', () => {
  it('counts a probe recovered once it is fast for the cache the run found', () => {
    const random = seededRandom(seed);
    const fast = logBetween(random, 0.5 * GB, 3 * GB);
    const slow = fast * between(random, 0.1, 0.5);
    const cacheBytes = between(random, 0.3, 1) * GB;
    // Emptied fully by the second probe: the first probe finds a quarter of it free.
    const probes = [0.25, 1].map((free, i) => ({
      idleSeconds: 30 * (i + 1),
      samples: sustainedStream({
        random,
        totalBytes: 2 * GB,
        drive: (bytes) => (bytes < free * cacheBytes ? fast : slow),
        noise: 0.05,
        stallChance: 0,
      }),
    }));
    const where = `seed ${seed}: cache ${(cacheBytes / GB).toFixed(2)} GB`;
    // Read as "fast to the end", a 2 GB probe never recovers on this drive: 20 probes, 13 minutes.
    assert.equal(probeRecovery(probes, fast).recoverySeconds, null, where);
    const read = probeRecovery(probes, fast, 0.9, cacheBytes);
    assert.equal(read.recoverySeconds, 60, where);
    assert.equal(read.probes[0]!.recovered, false, where);
  });
});

describe('findings on samples', () => {
  it('use the samples when there are any, the per-file rates when not (version 1 results)', () => {
    const random = seededRandom(seed);
    const stream = sustainedStream({
      random,
      totalBytes: 40 * GB,
      drive: (bytes) => (bytes < 2.9 * GB ? 0.7 * GB : 0.15 * GB),
    });
    const files = fileRecords(stream);
    const withSamples = findings({ files, cacheMode: 'direct', samples: { write: stream } });
    const cliff = withSamples.find((f) => f.kind === 'cliff');
    assert.ok(cliff && cliff.kind === 'cliff', `seed ${seed}: ${JSON.stringify(withSamples)}`);
    assert.ok(Math.abs(cliff.atBytes / (2.9 * GB) - 1) < 0.05, `seed ${seed}: ${cliff.atBytes}`);
    assert.match(
      cliff.message,
      /^Write speed fell: about 2\.\d+ GB at [67]\d\d MB\/s, then 1\d\d MB\/s\.$/,
    );
    // Without samples (a version 1 result) the per-file detector speaks, as before.
    const withoutSamples = findings({ files, cacheMode: 'direct' });
    const perFile = cacheCliff(files);
    assert.deepEqual(
      withoutSamples.filter((f) => f.kind === 'cliff').map((f) => f.kind === 'cliff' && f.atBytes),
      perFile ? [perFile.atBytes] : [],
    );
  });

  it('analyse a million samples in well under a second (measured, not asserted)', (t) => {
    const random = seededRandom(seed);
    const n = 1_000_000;
    const times = new Float64Array(n);
    const bytes = new Float64Array(n);
    const file = new Int32Array(n);
    let inFile = 0;
    for (let i = 1; i < n; i += 1) {
      const rate = bytes[i - 1]! < 100e12 ? 1.2 * GB : 0.3 * GB;
      const newFile = inFile >= 2 * GB;
      file[i] = file[i - 1]! + (newFile ? 1 : 0);
      inFile = newFile ? 0 : inFile + rate * 0.25;
      bytes[i] = bytes[i - 1]! + (newFile ? 0 : rate * 0.25);
      times[i] = times[i - 1]! + (newFile ? 0.02 : 0.25 * Math.exp(0.08 * normal(random)));
    }
    const samples = { t: times, bytes, file };
    const cpu = process.cpuUsage();
    const started = performance.now();
    const shape = rateShape(samples);
    const shapeMs = performance.now() - started;
    const curve = sampleRates(samples);
    const drawn = decimateMinMax(curve.bytes, curve.rate, 2000);
    const allMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    t.diagnostic(
      `1e6 samples: rateShape ${shapeMs.toFixed(0)} ms, + rate curve and decimation ${allMs.toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU`,
    );
    assert.ok(shape?.steps && Math.abs(shape.steps[1]!.startBytes / 100e12 - 1) < 0.01);
    assert.ok(drawn.x.length <= 4000);
  });
});

describe('deliveryBlocks: the delivery cycle', () => {
  // Samples of one phase: `intervals` of [bytes, seconds], one file per `perFile` intervals.
  const phase = (intervals: [number, number][], perFile = intervals.length) => {
    const samples = { t: [0], bytes: [0], file: [0] };
    intervals.forEach(([bytes, seconds], k) => {
      const file = Math.floor(k / perFile);
      if (k > 0 && k % perFile === 0) {
        // A new file: its first sample, 20 ms after the last one closed.
        samples.t.push(samples.t.at(-1)! + 0.02);
        samples.bytes.push(samples.bytes.at(-1)!);
        samples.file.push(file);
      }
      samples.t.push(samples.t.at(-1)! + seconds);
      samples.bytes.push(samples.bytes.at(-1)! + bytes);
      samples.file.push(file);
    });
    return deliveryBlocks(transferCurve(samples), 4000);
  };
  const chunk = 4 * 2 ** 20;

  it('is the time from hold to hold of a throttle that passes bursts and holds', () => {
    // 100 ms slices: three chunks at once, then held for the rest of the slice.
    const slice = Array.from({ length: 300 }, (_, k): [number, number] =>
      k % 4 === 3 ? [chunk, 0.094] : [chunk, 0.002],
    );
    const { cycleSeconds } = phase(slice);
    assert.ok(Math.abs(cycleSeconds - 0.1) < 0.005, `${cycleSeconds}`);
  });

  it('is none for an even drive whose files end in short, slow writes', () => {
    // 55 MB/s, each file's last write 0.1–1 MB in 30–150 ms (sawtooth-run1.json's tails): they
    // are slower than their neighbours, and 4 s apart, but they are not holds.
    const even = Array.from({ length: 300 }, (_, k): [number, number] =>
      k % 25 === 24 ? [0.1e6 + (k % 7) * 0.15e6, 0.03 + (k % 5) * 0.03] : [chunk, chunk / 55e6],
    );
    assert.equal(phase(even, 25).cycleSeconds, 0);
  });

  it('is none for holds seconds apart: stalls, not a rhythm of delivery', () => {
    // Whole chunks at 50 MB/s, one in 30 held 0.5 s: 3 % of the intervals, 2.5 s apart.
    const stalls = Array.from({ length: 300 }, (_, k): [number, number] =>
      k % 30 === 29 ? [chunk, 0.5] : [chunk, chunk / 50e6],
    );
    assert.equal(phase(stalls).cycleSeconds, 0);
  });
});
