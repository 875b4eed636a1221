/**
 * The statistics that now run on columns and sorted runs (for a million files in O(n log n) and
 * little memory) give the figures the straightforward code gave, to the last bit, on random data.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linearRegression, median, rSquared } from 'simple-statistics';
import { leastSquares } from '../../../app/core/analysis/least-squares.js';
import { perSizeMedians } from '../../../app/core/analysis/per-size-medians.js';
import { sizeAdjustedRatios } from '../../../app/core/analysis/size-adjusted-spread.js';
import { SlopeSelector } from '../../../app/core/analysis/slope-selection.js';
import { newSeed, seededRandom } from '../../../app/core/bench/seeded-random.js';

const seed = Number(process.env.PLUMB_TEST_SEED ?? newSeed());
console.log(`# seed ${seed} (replay with PLUMB_TEST_SEED=${seed})`);

/** Transfers of a few sizes or many, as runs have them. */
function transfers(random: () => number, count: number, distinctSizes: number) {
  const sizes = Array.from({ length: distinctSizes }, () => Math.round(1e4 * 2e5 ** random()));
  return Array.from({ length: count }, () => {
    const bytes = sizes[Math.floor(random() * sizes.length)]!;
    return { bytes, seconds: 1e-4 + (bytes / 2e9) * (0.5 + random()) };
  });
}

describe('statistics on columns', () => {
  it('least squares: simple-statistics’ slope, intercept and r², bit for bit', () => {
    const random = seededRandom(seed);
    for (let trial = 0; trial < 200; trial += 1) {
      const points = transfers(
        random,
        2 + Math.floor(random() * 300),
        1 + Math.floor(random() * 9),
      ).map(({ bytes, seconds }) => [bytes, seconds] as [number, number]);
      const fit = leastSquares(points);
      if (new Set(points.map(([x]) => x)).size < 2) {
        assert.equal(fit, null);
        continue;
      }
      const { m, b } = linearRegression(points);
      const r2 = rSquared(points, (x) => b + m * x);
      assert.deepEqual(fit, { slope: m, intercept: b, r2: Number.isFinite(r2) ? r2 : 1 });
    }
  });

  it('per-size medians and size-adjusted ratios: the medians of lists grouped by size', () => {
    const random = seededRandom(seed + 1);
    for (let trial = 0; trial < 100; trial += 1) {
      const list = transfers(random, 1 + Math.floor(random() * 400), 1 + Math.floor(random() * 20));
      const bySize = new Map<number, number[]>();
      for (const t of list) bySize.set(t.bytes, [...(bySize.get(t.bytes) ?? []), t.seconds]);
      const sizes = [...bySize.keys()].sort((a, b) => a - b);
      assert.deepEqual(
        perSizeMedians(list),
        sizes.map((bytes) => ({
          bytes,
          count: bySize.get(bytes)!.length,
          medianRate: median(bySize.get(bytes)!.map((seconds) => bytes / seconds)),
        })),
      );
      assert.deepEqual(
        sizeAdjustedRatios(list, null),
        list.map((t) => t.seconds / median(bySize.get(t.bytes)!)),
      );
    }
  });

  it('Theil–Sen selects exact ranks on 5,000 points (the radix sort and reused buffers)', () => {
    const random = seededRandom(seed + 2);
    const points = transfers(random, 5000, 1 + Math.floor(random() * 5000));
    const slopes: number[] = [];
    for (let i = 0; i < points.length; i += 1) {
      for (let j = i + 1; j < points.length; j += 1) {
        const [a, b] = [points[i]!, points[j]!];
        if (a.bytes !== b.bytes) slopes.push((b.seconds - a.seconds) / (b.bytes - a.bytes));
      }
    }
    const sorted = Float64Array.from(slopes).sort();
    const selector = new SlopeSelector(
      Float64Array.from(points, (p) => p.bytes),
      Float64Array.from(points, (p) => p.seconds),
      random,
    );
    assert.equal(selector.pairCount, sorted.length);
    for (let k = 0; k < 4; k += 1) {
      const rank = Math.floor(random() * sorted.length);
      const [low, high] = selector.slopesAtRanks(rank, Math.min(sorted.length - 1, rank + 1));
      assert.deepEqual([low, high], [sorted[rank], sorted[Math.min(sorted.length - 1, rank + 1)]]);
    }
  });
});
