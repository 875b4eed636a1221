import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { median } from 'simple-statistics';
import { RunningMedian } from '../../../app/core/analysis/running-median.js';
import { seededRandom } from '../../../app/core/bench/seeded-random.js';

describe('RunningMedian', () => {
  it('gives the median and summed absolute deviation of a hand-worked list', () => {
    const running = new RunningMedian();
    assert.ok(Number.isNaN(running.median()));
    assert.equal(running.absoluteDeviation(), 0);
    // 5 → median 5, cost 0; 5,1 → 3, cost 4; 5,1,9 → 5, cost 8; 5,1,9,3 → 4, cost 1+3+5+1 = 10.
    const expected = [
      [5, 0],
      [3, 4],
      [5, 8],
      [4, 10],
    ];
    for (const [i, value] of [5, 1, 9, 3].entries()) {
      running.push(value);
      assert.deepEqual([running.median(), running.absoluteDeviation()], expected[i]);
      assert.equal(running.count, i + 1);
    }
  });

  it('agrees with a direct computation at every length, ties included', () => {
    const random = seededRandom(7);
    const values: number[] = [];
    const running = new RunningMedian();
    for (let i = 0; i < 500; i += 1) {
      // Rounded values so the list holds many ties.
      const value = Math.round(random() * 40) / 4;
      values.push(value);
      running.push(value);
      const m = median(values);
      const cost = values.reduce((sum, v) => sum + Math.abs(v - m), 0);
      assert.equal(running.median(), m);
      assert.ok(Math.abs(running.absoluteDeviation() - cost) < 1e-9 * Math.max(1, cost));
    }
  });
});
