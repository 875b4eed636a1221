/**
 * The analysis on in-file samples (issue 13), as properties over random drives: sample streams
 * made the way the built-in `sustained` plan writes (its file sizes, a total like its default) on
 * model drives with a cache cliff, cache steps, heat throttling or none, drawn at random. Set
 * PLUMB_TEST_SEED to replay a failure; every message carries the seed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rateShape } from '../../../app/core/analysis/rate-shape.js';
import { findings } from '../../../app/core/analysis/findings.js';
import {
  baseSeed,
  between,
  defaultTotal,
  fileRecords,
  logBetween,
  seededRandom,
  sustainedStream,
} from '../../helpers/synthetic-samples.js';

const seed = baseSeed();
const near = (value: number, truth: number, tolerance: number) =>
  Math.abs(value / truth - 1) <= tolerance;
const GB = 1e9;

/** A drive with a cache of `cacheBytes` (written at `before`, then `after`), drawn at random. */
function cliffDraw(random: () => number, maxSampleBytes?: (total: number) => number) {
  const total = defaultTotal(random);
  // From a USB stick's 30 MB/s to a TB5 SSD's 7 GB/s, falling by 30 % or more (at most 70-fold,
  // and not below 20 MB/s).
  const before = logBetween(random, 0.03 * GB, 7 * GB);
  const after = logBetween(random, Math.max(0.02 * GB, before / 70), 0.7 * before);
  const sampleStep = Math.min(before * 0.25, maxSampleBytes?.(total) ?? total / 1000);
  const noise = between(random, 0.02, 0.15);
  // The fewest samples in the cache for its place within 5 %: a change is placed to within a
  // sample or two, and further the noisier a sample is against the step (the error grows as
  // (noise / step)²): at 8 % noise 20 samples do, at 15 % against a 30 % step two noisy samples
  // in a row after the change look fast to any estimator, and 20 samples missed 1 draw in about
  // 2,000 (seed 186942 of the old draws: 0.67 GB in 23 samples at 13 % noise, placed 7 % late).
  // Its rate, a mean of N noisy samples, is within 10 % by the same count: 31 samples at 14 %
  // noise were 10.1 % off once (seed 4129907, a 3σ draw). So N starts at max(0.5 GB, that many
  // samples): 0.5 GB itself at up to 8 % noise when samples are at most 20 MiB apart.
  const needed = 20 * Math.max(1, (noise / 0.08) ** 2);
  // Uniform and log-uniform halves, so small caches are drawn as often as large ones.
  const low = Math.max(0.5 * GB, needed * sampleStep);
  const cacheBytes =
    random() < 0.5 ? between(random, low, 0.8 * total) : logBetween(random, low, 0.8 * total);
  const stream = sustainedStream({
    random,
    totalBytes: total,
    drive: (bytes) => (bytes < cacheBytes ? before : after),
    noise,
    maxSampleBytes: maxSampleBytes?.(total),
  });
  const label = `total ${(total / GB).toFixed(1)} GB, cache ${(cacheBytes / GB).toFixed(2)} GB, ${(before / GB).toFixed(2)} → ${(after / GB).toFixed(2)} GB/s, noise ${noise.toFixed(2)}`;
  return { total, before, after, cacheBytes, stream, label };
}

function checkCliff(draw: ReturnType<typeof cliffDraw>, where: string): void {
  const shape = rateShape(draw.stream);
  const steps = shape?.steps;
  assert.ok(steps, `${where}: no cliff (${draw.label})`);
  assert.equal(steps.length, 2, `${where}: ${steps.length} steps (${draw.label})`);
  assert.ok(
    near(steps[1]!.startBytes, draw.cacheBytes, 0.05),
    `${where}: cliff at ${steps[1]!.startBytes} (${draw.label})`,
  );
  assert.ok(
    near(steps[0]!.rate, draw.before, 0.1),
    `${where}: before ${steps[0]!.rate} (${draw.label})`,
  );
  assert.ok(
    near(steps[1]!.rate, draw.after, 0.1),
    `${where}: after ${steps[1]!.rate} (${draw.label})`,
  );
  assert.equal(shape.throttling, null, `${where}: a cache called throttling (${draw.label})`);
}

describe('rateShape: a cache cliff on samples of the sustained plan', () => {
  it('places the cliff within 5 % and both rates within 10 %, with the sampler issue 13 asks for', () => {
    // 4 samples a second, never coarser than 1/1000 of the total. Its rate within 10 % at up to
    // 15 % noise a sample takes about 20 samples (6 gave 1 miss in 200 draws), its place within
    // 5 % more at the noisiest draws (see cliffDraw), so N is drawn from max(0.5 GB, 20–70
    // samples): up to 2–7 % of the total on a fast drive.
    for (let draw = 0; draw < 150; draw += 1)
      checkCliff(cliffDraw(seededRandom(seed + draw)), `seed ${seed + draw}`);
  });

  it('over the whole range from 0.5 GB when samples are at most 20 MiB apart', () => {
    // At 7 GB/s and 1/1000 of an 800 GB total, a sample every 0.8 GB cannot show a 0.5 GB cache;
    // 20 MiB apart puts 24 samples in it (at up to 8 % noise; noisier, N starts higher).
    const cap = (total: number) => Math.min(total / 1000, 20 * 2 ** 20);
    for (let draw = 0; draw < 100; draw += 1)
      checkCliff(cliffDraw(seededRandom(seed + 1000 + draw), cap), `seed ${seed + 1000 + draw}`);
  });

  it('reports every step of a cache that runs out in stages', () => {
    for (let draw = 0; draw < 80; draw += 1) {
      const where = `seed ${seed + 2000 + draw}`;
      const random = seededRandom(seed + 2000 + draw);
      const total = defaultTotal(random);
      const rates = [logBetween(random, 1 * GB, 7 * GB)];
      rates.push(rates[0]! * between(random, 0.2, 0.6));
      rates.push(rates[1]! * between(random, 0.3, 0.65));
      const first = total * between(random, 0.05, 0.5);
      const second = first + total * between(random, 0.1, 0.4);
      const stream = sustainedStream({
        random,
        totalBytes: total,
        drive: (bytes) => rates[bytes < first ? 0 : bytes < second ? 1 : 2]!,
        noise: between(random, 0.02, 0.12),
      });
      const steps = rateShape(stream)?.steps;
      assert.equal(steps?.length, 3, `${where}: ${steps?.length} steps`);
      assert.ok(
        near(steps[1]!.startBytes, first, 0.05),
        `${where}: first at ${steps[1]!.startBytes}`,
      );
      assert.ok(
        near(steps[2]!.startBytes, second, 0.05),
        `${where}: second at ${steps[2]!.startBytes}`,
      );
      steps.forEach((step, k) =>
        assert.ok(near(step.rate, rates[k]!, 0.1), `${where}: step ${k} at ${step.rate}`),
      );
    }
  });

  it("shows a lab review's drive: 592 GB at full speed, then 2.2 GB/s, then 1.0 GB/s", () => {
    const random = seededRandom(seed);
    // A 4 TB drive, mostly free: the plan's default total is 1.6 TB.
    const total = 1.6e12;
    const drive = (bytes: number) =>
      bytes < 592 * GB ? 6.5 * GB : bytes < 900 * GB ? 2.2 * GB : 1 * GB;
    const stream = sustainedStream({ random, totalBytes: total, drive });
    const found = findings({
      files: fileRecords(stream),
      cacheMode: 'direct',
      samples: { write: stream },
    });
    const cliff = found.find((f) => f.kind === 'cliff');
    assert.ok(
      cliff && cliff.kind === 'cliff' && cliff.steps,
      `seed ${seed}: ${JSON.stringify(found)}`,
    );
    const truth = [
      [0, 6.5 * GB],
      [592 * GB, 2.2 * GB],
      [900 * GB, 1 * GB],
    ];
    assert.equal(cliff.steps.length, 3, `seed ${seed}`);
    cliff.steps.forEach((step, k) => {
      const [atBytes, rate] = truth[k]!;
      if (k > 0)
        assert.ok(near(step.atBytes, atBytes!, 0.05), `seed ${seed}: step ${k} at ${step.atBytes}`);
      assert.ok(near(step.rate, rate!, 0.1), `seed ${seed}: step ${k} rate ${step.rate}`);
    });
    assert.match(
      cliff.message,
      /GB\/s for the first 59\d.* GB, then 2\.\d+ GB\/s from 59\d.* GB \(\d+ s\), then [\d.]+ [MG]B\/s from [89]\d\d.* GB/,
    );
    assert.equal(cliff.afterRate, cliff.steps[1]!.rate);
  });
});

describe('rateShape: heat throttling on samples', () => {
  /** A drive that runs fast, then slows for `slowShare` of every `period` seconds. */
  function sawtooth(random: () => number) {
    const fast = logBetween(random, 0.03 * GB, 7 * GB);
    const slow = fast * between(random, 0.25, 0.65);
    const period = logBetween(random, 3, 30);
    // Each slow and fast stretch lasts at least 1.25 s: five samples at 4 a second.
    const slowShare = between(
      random,
      Math.max(0.2, 1.25 / period),
      Math.min(0.7, 1 - 1.25 / period),
    );
    const onset = between(random, 0, 3 * period);
    const cycles = Math.round(between(random, 4, 12));
    const drive = (_bytes: number, seconds: number) =>
      seconds >= onset && ((seconds - onset) / period) % 1 < slowShare ? slow : fast;
    const total = onset * fast + cycles * period * (slowShare * slow + (1 - slowShare) * fast);
    const stream = sustainedStream({
      random,
      totalBytes: total,
      drive,
      noise: between(random, 0.02, 0.12),
    });
    const label = `${(fast / GB).toFixed(2)} GB/s slowing to ${(slow / fast).toFixed(2)} × for ${slowShare.toFixed(2)} of every ${period.toFixed(1)} s, ${cycles} times`;
    return { stream, period, slowShare, cycles, label };
  }

  it('reports a repeating slow-down as throttling with its period and slow share, never a cache', () => {
    for (let draw = 0; draw < 120; draw += 1) {
      const where = `seed ${seed + 3000 + draw}`;
      const { stream, period, slowShare, cycles, label } = sawtooth(
        seededRandom(seed + 3000 + draw),
      );
      const shape = rateShape(stream);
      const throttling = shape?.throttling;
      assert.ok(throttling, `${where}: no throttling (${label})`);
      assert.equal(shape.steps, null, `${where}: throttling called a cache (${label})`);
      assert.ok(
        near(throttling.periodSeconds, period, 0.15),
        `${where}: period ${throttling.periodSeconds} (${label})`,
      );
      assert.ok(
        Math.abs(throttling.slowShare - slowShare) < 0.1,
        `${where}: slow ${throttling.slowShare} (${label})`,
      );
      assert.ok(
        throttling.count >= cycles - 1,
        `${where}: ${throttling.count} slow-downs (${label})`,
      );
      const found = findings({
        files: fileRecords(stream),
        cacheMode: 'direct',
        samples: { write: stream },
      });
      const drops = found.filter((f) => f.kind === 'cliff' || f.kind === 'throttling');
      assert.deepEqual(
        drops.map((f) => f.kind),
        ['throttling'],
        `${where}: ${label}`,
      );
      assert.notEqual(drops[0]!.kind === 'throttling' && drops[0]!.cause, 'cache', where);
    }
  });

  it('names the trial drive: 9 slow-downs in 35 s', () => {
    const random = seededRandom(seed);
    const period = 35 / 9;
    const drive = (_bytes: number, seconds: number) =>
      (seconds / period) % 1 < 0.4 ? 0.6 * GB : 2.3 * GB;
    const stream = sustainedStream({
      random,
      totalBytes: 35 * (0.4 * 0.6 + 0.6 * 2.3) * GB,
      drive,
    });
    const [finding] = findings({
      files: fileRecords(stream),
      cacheMode: 'direct',
      samples: { write: stream },
      recoverySeconds: 30,
    }).filter((f) => f.kind === 'throttling');
    assert.ok(finding && finding.kind === 'throttling' && finding.repeating, `seed ${seed}`);
    assert.ok(finding.repeating.count >= 8, `seed ${seed}: ${finding.repeating.count}`);
    assert.ok(
      near(finding.repeating.periodSeconds, period, 0.1),
      `seed ${seed}: ${finding.repeating.periodSeconds}`,
    );
    assert.equal(finding.cause, 'thermal');
    assert.match(
      finding.message,
      /fell from 2\.\d+ GB\/s to \d+ MB\/s \d+ times while the write went on, about every 3\.\d s/,
    );
    assert.match(finding.message, /a full write cache stays slow until writing stops/);
  });
});

describe('rateShape: a steady drive', () => {
  it('shows no cliff and no throttling, with noise and stalls, over many draws', () => {
    const draws = 300;
    let falsePositives = 0;
    const cases: string[] = [];
    for (let draw = 0; draw < draws; draw += 1) {
      const random = seededRandom(seed + 4000 + draw);
      const total = defaultTotal(random);
      const rate = logBetween(random, 0.03 * GB, 7 * GB);
      const noise = between(random, 0.02, 0.15);
      const stream = sustainedStream({
        random,
        totalBytes: total,
        drive: () => rate,
        noise,
        stallChance: 0.01,
      });
      const shape = rateShape(stream);
      assert.ok(shape, `seed ${seed + 4000 + draw}: too few samples`);
      if (shape.steps || shape.throttling) {
        falsePositives += 1;
        cases.push(`seed ${seed + 4000 + draw}`);
      }
    }
    // Measured at 0 of 300 over several base seeds; one in a hundred is the bound.
    assert.ok(falsePositives <= draws / 100, `${falsePositives} of ${draws}: ${cases.join(', ')}`);
  });
});
