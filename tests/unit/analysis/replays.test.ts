/**
 * The sustained runs at a real SSD's rates that the detector once got wrong (issue 23 and the CI
 * runs of 2026-12-02; tests/fixtures/replays/README.md), analysed again as `plumb analyze FILE`
 * does: every step where the throttle changed, within 5 % of its place and 10 % of its rate, and
 * the headline between the rates the run had.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ResultDocument } from '../../../app/contract/bench-result.js';
import { reanalyzeDocument } from '../../../app/core/bench/analyze.js';

const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/replays');
const GB = 1e9;
const MB = 1e6;

/**
 * Each file's truth: where the rate changed and the rates; `slack`, bytes a change may be off
 * beyond 5 % where the throttle's slice at the change shows at either rate (the kernel charges
 * the burst it passed before the fall at the new rate).
 */
const truths: Record<string, { changes: number[]; rates: number[]; slack?: number }> = {
  'cliff-run1.json': { changes: [4.72 * GB], rates: [800 * MB, 150 * MB] },
  'cliff-run2.json': { changes: [5.18 * GB], rates: [700 * MB, 200 * MB] },
  'cliff-run3.json': { changes: [2.0 * GB], rates: [740 * MB, 200 * MB] },
  'cliff-run4.json': { changes: [0.9 * GB], rates: [740 * MB, 150 * MB] },
  'steps-run1.json': { changes: [0.8 * GB, 1.95 * GB], rates: [850 * MB, 460 * MB, 150 * MB] },
  'dips-run1.json': { changes: [4.49 * GB, 5.78 * GB], rates: [580 * MB, 424 * MB, 195 * MB] },
  'pause-run1.json': { changes: [2.74 * GB], rates: [470 * MB, 132 * MB] },
  'flush-run1.json': { changes: [0.836 * GB, 2.25 * GB], rates: [375 * MB, 258 * MB, 137 * MB] },
  'burst-run1.json': { changes: [2.584 * GB, 4.082 * GB], rates: [477 * MB, 241 * MB, 128 * MB] },
  'flush-run2.json': { changes: [0.382 * GB], rates: [392 * MB, 123 * MB] },
  'first-slice-run1.json': { changes: [0.386 * GB], rates: [871 * MB, 225 * MB] },
  'small-disk-run1.json': { changes: [0.318 * GB], rates: [780 * MB, 182 * MB], slack: 80 * MB },
};

const near = (value: number, truth: number, share: number) => Math.abs(value / truth - 1) <= share;

describe('replays of sustained runs at a real drive’s rates (issue 23)', () => {
  for (const [name, truth] of Object.entries(truths)) {
    it(`${name}: every step in place, every rate right`, () => {
      const stored = ResultDocument.parse(
        JSON.parse(readFileSync(path.join(folder, name), 'utf8')),
      );
      const document = reanalyzeDocument(stored);
      const cliff = document.findings.find((f) => f.kind === 'cliff' || f.kind === 'throttling');
      assert.ok(cliff && cliff.kind === 'cliff', JSON.stringify(document.findings));
      const steps = cliff.steps ?? [];
      const said = steps
        .map((s) => `${(s.atBytes / GB).toFixed(2)} GB at ${(s.rate / MB).toFixed(0)} MB/s`)
        .join(', ');
      assert.equal(steps.length, truth.rates.length, `steps: ${said}`);
      steps.forEach((step, k) => {
        if (k > 0)
          assert.ok(
            near(step.atBytes, truth.changes[k - 1]!, 0.05) ||
              Math.abs(step.atBytes - truth.changes[k - 1]!) <= (truth.slack ?? 0),
            `step ${k} place: ${said}`,
          );
        assert.ok(near(step.rate, truth.rates[k]!, 0.1), `step ${k} rate: ${said}`);
      });
      assert.equal(cliff.atBytes, steps[1]!.atBytes);
      assert.equal(cliff.beforeRate, steps[0]!.rate);
      assert.equal(cliff.afterRate, steps[1]!.rate);
      const headline = document.headline?.write?.rate;
      assert.ok(
        headline !== null &&
          headline !== undefined &&
          headline <= Math.max(...truth.rates) * 1.1 &&
          headline >= Math.min(...truth.rates) * 0.9,
        `headline ${headline} outside the run's rates ${truth.rates.join(', ')}`,
      );
    });
  }
});

/** Sawtooth runs (tests/e2e/cli-bench-samples.test.ts): the throttle's rates and its period. */
const sawtooths: Record<string, { fast: number; slow: number; period: number }> = {
  'sawtooth-run1.json': { fast: 54.03 * MB, slow: 22.02 * MB, period: 2.66 + 3.15 },
  'sawtooth-run2.json': { fast: 38.3 * MB, slow: 14.65 * MB, period: 3.19 + 3.33 },
};

describe('replays of sawtooth runs the detector once called steady', () => {
  for (const [name, truth] of Object.entries(sawtooths)) {
    it(`${name}: throttling, at the drawn rates and period`, () => {
      const stored = ResultDocument.parse(
        JSON.parse(readFileSync(path.join(folder, name), 'utf8')),
      );
      const drop = reanalyzeDocument(stored).findings.find(
        (f) => f.kind === 'cliff' || f.kind === 'throttling',
      );
      assert.ok(drop && drop.kind === 'throttling', JSON.stringify(drop));
      assert.ok(drop.repeating && drop.repeating.count >= 4, JSON.stringify(drop.repeating));
      assert.ok(near(drop.repeating.periodSeconds, truth.period, 0.1), drop.message);
      assert.ok(near(drop.beforeRate, truth.fast, 0.1), drop.message);
      assert.ok(near(drop.afterRate, truth.slow, 0.1), drop.message);
    });
  }
});
