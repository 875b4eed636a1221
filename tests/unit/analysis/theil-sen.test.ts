import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { median } from 'simple-statistics';
import { SlopeSelector } from '../../../app/core/analysis/slope-selection.js';
import { theilSen, type LineFit } from '../../../app/core/analysis/theil-sen.js';
import { seededRandom } from '../../../app/core/bench/seeded-random.js';

/** The quadratic method Plumb used before (every slope listed): the oracle. */
function theilSenQuadratic(points: readonly (readonly [number, number])[]): LineFit | null {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i += 1) {
    const [xi, yi] = points[i]!;
    for (let j = i + 1; j < points.length; j += 1) {
      const [xj, yj] = points[j]!;
      if (xj !== xi) slopes.push((yj - yi) / (xj - xi));
    }
  }
  if (slopes.length === 0) return null;
  const slope = median(slopes);
  const intercept = median(points.map(([x, y]) => y - slope * x));
  return { slope, intercept };
}

/** −0 and 0 are the same slope; which tied pair the median lands on decides the sign. */
function signless(fit: LineFit | null): LineFit | null {
  return fit && { slope: fit.slope + 0, intercept: fit.intercept + 0 };
}

type Shape = (random: () => number, i: number) => [number, number];

/** Point clouds drawn at random: ties, duplicate x, whole duplicate points, outliers, collinear runs. */
const shapes: Record<string, Shape> = {
  'small integer grid (many equal slopes, duplicate points)': (r) => [
    Math.floor(r() * 5),
    Math.floor(r() * 5),
  ],
  'transfers of a few sizes with outliers': (r) => {
    const bytes = [4096, 65536, 1 << 20, 8 << 20][Math.floor(r() * 4)]!;
    return [bytes, 2e-4 + (bytes / 1.5e9) * (1 + 0.05 * r()) + (r() < 0.2 ? r() * 0.05 : 0)];
  },
  'real-valued x and y': (r) => [r() * 1e6 - 5e5, r() * 2 - 1],
  'collinear with a few off the line': (r) => {
    const x = Math.floor(r() * 1000) - 500;
    return [x, r() < 0.2 ? r() * 100 : 3 * x + 7];
  },
  'one x shared by most points': (r, i) => [i % 10 === 0 ? r() * 10 : 5, r()],
};

describe('theilSen without listing n² slopes', () => {
  it('gives exactly the quadratic method’s line on random inputs with ties and duplicate x', () => {
    const random = seededRandom(18);
    let compared = 0;
    for (const [name, shape] of Object.entries(shapes)) {
      for (let trial = 0; trial < 150; trial += 1) {
        // Up to 120 points: past 4n + 1024 pairs, so the sampled contraction runs, not only the listing.
        const n = Math.floor(random() * 121);
        const points = Array.from({ length: n }, (_, i) => shape(random, i));
        assert.deepEqual(
          signless(theilSen(points)),
          signless(theilSenQuadratic(points)),
          `${name}: ${JSON.stringify(points)}`,
        );
        compared += 1;
      }
    }
    assert.equal(compared, 750);
  });

  it('selects every rank of the slopes exactly, not only the median', () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 40; trial += 1) {
      const n = 40 + Math.floor(random() * 60);
      const shape = Object.values(shapes)[trial % 5]!;
      const points = Array.from({ length: n }, (_, i) => shape(random, i));
      const slopes: number[] = [];
      for (let i = 0; i < n; i += 1) {
        for (let j = i + 1; j < n; j += 1) {
          const [xi, yi] = points[i]!;
          const [xj, yj] = points[j]!;
          if (xi !== xj) slopes.push((yj - yi) / (xj - xi));
        }
      }
      slopes.sort((a, b) => a - b);
      const selector = new SlopeSelector(
        Float64Array.from(points, ([x]) => x),
        Float64Array.from(points, ([, y]) => y),
        random,
      );
      assert.equal(selector.pairCount, slopes.length);
      for (let k = 0; k < 5 && slopes.length > 0; k += 1) {
        const low = Math.floor(random() * slopes.length);
        const high = Math.min(slopes.length - 1, low + Math.floor(random() * 3));
        const [lowSlope, highSlope] = selector.slopesAtRanks(low, high);
        assert.deepEqual([lowSlope + 0, highSlope + 0], [slopes[low]! + 0, slopes[high]! + 0]);
      }
    }
  });

  it('fits 30,000 transfers, which the n² method could not hold (it died with "invalid size")', () => {
    const random = seededRandom(3);
    const points = Array.from({ length: 30_000 }, () => {
      const bytes = 4096 * (1 + Math.floor(random() * 2048));
      return [bytes, 1e-4 + bytes / 2e9 + (random() < 0.1 ? random() * 0.01 : 0)] as const;
    });
    const fit = theilSen(points)!;
    // The outliers are all slow (above the line), so the robust slope stays on the true one.
    assert.ok(Math.abs(fit.slope * 2e9 - 1) < 0.01, `slope ${String(fit.slope)}`);
    assert.ok(Math.abs(fit.intercept - 1e-4) < 1e-5, `intercept ${String(fit.intercept)}`);
  });
});
