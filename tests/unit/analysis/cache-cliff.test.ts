import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cacheCliff } from '../../../app/core/analysis/cache-cliff.js';
import type { SeriesPoint } from '../../../app/core/analysis/transfer-columns.js';
import { recoveryTime } from '../../../app/core/analysis/recovery-time.js';
import { seededRandom } from '../../../app/core/bench/seeded-random.js';

/**
 * Files of random sizes written to a drive that runs at `fast` until `cliffBytes` have been
 * written and at `slow` after (the file that straddles it is timed part at each rate), with
 * multiplicative noise of ±`noise`.
 */
function syntheticSeries(options: {
  seed: number;
  files: number;
  fast: number;
  slow: number;
  /** Where the cliff is, as a share of all the bytes written. */
  cliffAt: number;
  noise: number;
}): { points: SeriesPoint[]; cliffBytes: number } {
  const random = seededRandom(options.seed);
  const [minBytes, maxBytes] = [50e6, 500e6];
  const sizes = Array.from({ length: options.files }, () =>
    Math.round(minBytes * Math.exp(random() * Math.log(maxBytes / minBytes))),
  );
  const cliffBytes = options.cliffAt * sizes.reduce((sum, b) => sum + b, 0);
  const points: SeriesPoint[] = [];
  let cumulative = 0;
  let t = 0;
  for (const bytes of sizes) {
    const fastBytes = Math.max(0, Math.min(bytes, cliffBytes - cumulative));
    const ideal = fastBytes / options.fast + (bytes - fastBytes) / options.slow;
    const seconds = ideal * (1 + options.noise * (2 * random() - 1));
    cumulative += bytes;
    t += seconds;
    points.push({ bytes, seconds, cumulativeBytes: cumulative, t });
  }
  return { points, cliffBytes };
}

describe('cacheCliff', () => {
  it('finds a cliff within 5 % of its position, with both rates, over many noisy series', () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const { points, cliffBytes } = syntheticSeries({
        seed,
        files: 160,
        fast: 2.3e9,
        slow: 0.65e9,
        cliffAt: 0.1 + seed * 0.04,
        noise: 0.1,
      });
      const cliff = cacheCliff(points);
      assert.ok(cliff, `seed ${seed}: no cliff found`);
      assert.ok(
        Math.abs(cliff.atBytes - cliffBytes) <= 0.05 * cliffBytes,
        `seed ${seed}: at ${cliff.atBytes} not ${cliffBytes}`,
      );
      assert.ok(
        Math.abs(cliff.beforeRate / 2.3e9 - 1) < 0.1,
        `seed ${seed}: before ${cliff.beforeRate}`,
      );
      assert.ok(
        Math.abs(cliff.afterRate / 0.65e9 - 1) < 0.1,
        `seed ${seed}: after ${cliff.afterRate}`,
      );
      assert.ok(cliff.confidence >= 0.9, `seed ${seed}: confidence ${cliff.confidence}`);
    }
  });

  it('locates the cliff inside the file that straddles it', () => {
    // Ten 1 GB files at 2 GB/s, then ten at 1 GB/s; the cliff at 5.25 GB falls a quarter into file 6.
    const points: SeriesPoint[] = [];
    let cumulative = 0;
    for (let i = 0; i < 20; i += 1) {
      const fastBytes = Math.max(0, Math.min(1e9, 5.25e9 - cumulative));
      cumulative += 1e9;
      points.push({
        bytes: 1e9,
        seconds: fastBytes / 2e9 + (1e9 - fastBytes) / 1e9,
        cumulativeBytes: cumulative,
        t: null,
      });
    }
    const cliff = cacheCliff(points);
    assert.ok(cliff);
    assert.ok(Math.abs(cliff.atBytes - 5.25e9) < 1e6, `at ${cliff.atBytes}`);
    assert.equal(cliff.beforeRate, 2e9);
    assert.equal(cliff.afterRate, 1e9);
    assert.equal(cliff.index, 6);
    assert.equal(cliff.atSeconds, null);
  });

  it('reports the time of the cliff when the points carry it', () => {
    const { points, cliffBytes } = syntheticSeries({
      seed: 3,
      files: 60,
      fast: 1e9,
      slow: 0.25e9,
      cliffAt: 0.4,
      noise: 0,
    });
    const cliff = cacheCliff(points);
    assert.ok(cliff && cliff.atSeconds !== null);
    // At 1 GB/s until the cliff, the cliff comes after cliffBytes / 1e9 seconds.
    assert.ok(Math.abs(cliff.atSeconds - cliffBytes / 1e9) < 0.01, `at ${cliff.atSeconds} s`);
  });

  it('reports none on flat noisy series', () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const { points: series } = syntheticSeries({
        seed,
        files: 160,
        fast: 1e9,
        slow: 1e9,
        cliffAt: 0,
        noise: 0.25,
      });
      assert.equal(cacheCliff(series), null, `seed ${seed}`);
    }
  });

  it('ignores single outliers, even very slow ones', () => {
    const { points: series } = syntheticSeries({
      seed: 11,
      files: 80,
      fast: 1e9,
      slow: 1e9,
      cliffAt: 0,
      noise: 0.05,
    });
    for (const index of [5, 40, 78])
      series[index] = { ...series[index]!, seconds: series[index]!.seconds * 10 };
    assert.equal(cacheCliff(series), null);
  });

  it('does not call a rise a cliff, and needs enough files', () => {
    const rising = syntheticSeries({
      seed: 5,
      files: 40,
      fast: 1e9,
      slow: 1e9,
      cliffAt: 0,
      noise: 0.02,
    }).points.map((p, i) => (i >= 20 ? { ...p, seconds: p.seconds / 3 } : p));
    assert.equal(cacheCliff(rising), null);
    assert.equal(cacheCliff(rising.slice(0, 5)), null);
  });
});

describe('recoveryTime', () => {
  it('is the idle time of the first probe back to 90 % of the rate before the cliff', () => {
    const probes = [
      { idleSeconds: 30, rate: 0.3e9 },
      { idleSeconds: 60, rate: 0.8e9 },
      { idleSeconds: 90, rate: 0.95e9 },
      { idleSeconds: 120, rate: 1e9 },
    ];
    assert.equal(recoveryTime(probes, 1e9), 90);
    assert.equal(recoveryTime(probes, 1e9, 0.75), 60);
  });
  it('is null when the rate never came back', () => {
    assert.equal(recoveryTime([{ idleSeconds: 30, rate: 0.3e9 }], 1e9), null);
  });
});
