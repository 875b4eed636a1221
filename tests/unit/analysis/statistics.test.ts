import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { leastSquares } from '../../../app/core/analysis/least-squares.js';
import { lineRate } from '../../../app/core/analysis/line-rate.js';
import { perSizeMedians } from '../../../app/core/analysis/per-size-medians.js';
import { phaseSummary } from '../../../app/core/analysis/phase-summary.js';
import { theilSen } from '../../../app/core/analysis/theil-sen.js';
import { transferRate, transferRates } from '../../../app/core/analysis/transfer-rate.js';
import { trimmedMean } from '../../../app/core/analysis/trimmed-mean.js';
import { seededRandom } from '../../../app/core/bench/seeded-random.js';

const close = (actual: number | null | undefined, expected: number, tolerance = 1e-9) => {
  assert.ok(actual !== null && actual !== undefined, `expected ${expected}, got ${actual}`);
  assert.ok(
    Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected)),
    `expected ${expected}, got ${actual}`,
  );
};

describe('transferRate', () => {
  it('is bytes over seconds', () => {
    assert.equal(transferRate(100, 2), 50);
  });
  it('has no rate for a transfer that took no time', () => {
    assert.equal(transferRate(100, 0), null);
    assert.deepEqual(
      transferRates([
        { bytes: 10, seconds: 0 },
        { bytes: 10, seconds: 5 },
      ]),
      [2],
    );
  });
});

describe('trimmedMean', () => {
  it('drops the lowest and highest 20 % and reports the 20th and 80th centiles', () => {
    // 1..10: cut 2 at each end → mean of 3..8 = 5.5; p20 at index 1.8 → 2.8, p80 at 7.2 → 8.2.
    const result = trimmedMean([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    close(result?.rate, 5.5);
    close(result?.p20, 2.8);
    close(result?.p80, 8.2);
  });
  it('ignores one wild value among five', () => {
    close(trimmedMean([1, 2, 3, 4, 100])?.rate, 3);
  });
  it('is null for no values and rejects a fraction of one half', () => {
    assert.equal(trimmedMean([]), null);
    assert.throws(() => trimmedMean([1, 2], 0.5), RangeError);
  });
});

describe('theilSen', () => {
  it('takes the median pairwise slope and the median intercept', () => {
    // Slopes 1,1,3,1,4,7 → median 2; intercepts 0,−1,−2,3 → median −0.5.
    const fit = theilSen([
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 9],
    ]);
    close(fit?.slope, 2);
    close(fit?.intercept, -0.5);
  });
  it('skips pairs of equal x and needs two distinct x', () => {
    assert.equal(
      theilSen([
        [1, 1],
        [1, 2],
      ]),
      null,
    );
    close(
      theilSen([
        [1, 1],
        [1, 3],
        [2, 4],
      ])?.slope,
      2,
    );
  });
  it('keeps the true rate with 20 % slow outliers, where least squares does not', () => {
    const random = seededRandom(7);
    const points: [number, number][] = [];
    for (let i = 0; i < 50; i += 1) {
      const bytes = 2e6 * Math.exp((i / 49) * Math.log(1000));
      let seconds = (0.002 + bytes / 1e9) * (1 + 0.02 * (random() - 0.5));
      if (i % 5 === 4) seconds *= 4; // every fifth file is four times slower
      points.push([bytes, seconds]);
    }
    const robust = lineRate(theilSen(points)).rate!;
    const squares = lineRate(leastSquares(points)).rate!;
    assert.ok(Math.abs(robust / 1e9 - 1) < 0.05, `Theil–Sen ${robust}`);
    assert.ok(Math.abs(squares / 1e9 - 1) > 0.2, `least squares ${squares}`);
  });
});

describe('leastSquares', () => {
  it('fits slope, intercept and r² as by hand', () => {
    // x̄ = 2, ȳ = 2, Sxy = 1, Sxx = 2 → slope 0.5, intercept 1; SSres 1.5, SStot 2 → r² 0.25.
    const fit = leastSquares([
      [1, 1],
      [2, 3],
      [3, 2],
    ]);
    close(fit?.slope, 0.5);
    close(fit?.intercept, 1);
    close(fit?.r2, 0.25);
  });
  it('gives r² of 1 on a perfect line and null without two distinct x', () => {
    close(
      leastSquares([
        [0, 1],
        [1, 3],
        [2, 5],
      ])?.r2,
      1,
    );
    assert.equal(
      leastSquares([
        [1, 1],
        [1, 2],
      ]),
      null,
    );
  });
});

describe('lineRate', () => {
  it('reads slope as seconds per byte and intercept as latency', () => {
    const { rate, latency } = lineRate({ slope: 1e-9, intercept: 0.001 });
    close(rate, 1e9);
    assert.equal(latency, 0.001);
  });
  it('has no rate when time does not grow with size', () => {
    assert.deepEqual(lineRate({ slope: -1, intercept: 2 }), { rate: null, latency: 2 });
    assert.deepEqual(lineRate(null), { rate: null, latency: null });
  });
});

describe('perSizeMedians', () => {
  it('groups by size and takes each median rate, smallest size first', () => {
    const result = perSizeMedians([
      { bytes: 100, seconds: 1 },
      { bytes: 10, seconds: 1 },
      { bytes: 100, seconds: 2 },
      { bytes: 100, seconds: 4 },
      { bytes: 10, seconds: 0 },
    ]);
    assert.deepEqual(result, [
      { bytes: 10, count: 1, medianRate: 10 },
      { bytes: 100, count: 3, medianRate: 50 },
    ]);
  });
});

describe('phaseSummary', () => {
  it('summarises rates and fits seconds on bytes', () => {
    // Rates 100, 100, 50 B/s; seconds = 0 + bytes/100 for the first two.
    const summary = phaseSummary([
      { bytes: 100, seconds: 1 },
      { bytes: 200, seconds: 2 },
      { bytes: 100, seconds: 2 },
    ]);
    assert.equal(summary.count, 3);
    close(summary.mean, 250 / 3);
    close(summary.median, 100);
    close(summary.min, 50);
    close(summary.max, 100);
    close(summary.sd, Math.sqrt(((50 / 3) ** 2 * 2 + (100 / 3) ** 2) / 2));
    // Theil–Sen: slopes (2−1)/100 = 0.01, (2−2)/100 = 0 (pair x 100/100 skipped) → median 0.005.
    close(summary.theilSen.rate, 200);
    assert.equal(summary.bySize.length, 2);
  });
  it('is all nulls for an empty phase', () => {
    const summary = phaseSummary([]);
    assert.equal(summary.count, 0);
    assert.equal(summary.median, null);
    assert.equal(summary.trimmedMean, null);
    assert.deepEqual(summary.linear, { rate: null, latency: null, r2: null });
  });
});
