/**
 * The grid's size and count on the built-in presets plan (what the engine accepts, what scales),
 * its best-of-passes cells, its figures in MB/s or IOPS, and the copied text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PresetsPlan } from '../../../app/contract/plan.js';
import { builtinPlan } from '../../../app/core/bench/builtin-plans.js';
import { parsePlan, scalePlan } from '../../../app/core/bench/plans.js';
import { formatBytes } from '../../../app/common/format.js';
import { gridFigure, gridText } from '../../../renderer/src/ui/result/grid-copy.js';
import {
  gridCounts,
  gridSettingsOf,
  gridSizeProblem,
  gridSizes,
  presetGrid,
  testName,
  withGridSettings,
} from '../../../renderer/src/ui/result/presets-grid.js';

const presets = builtinPlan('presets') as PresetsPlan;
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

test('a size and count make a plan the engine takes, each test run count times in a row', () => {
  assert.equal(withGridSettings(presets, gridSettingsOf(presets)), presets, 'unchanged: itself');
  const settings = { fileBytes: pick(gridSizes), count: pick(gridCounts.slice(1)) };
  const plan = withGridSettings(presets, settings);
  assert.deepEqual(gridSettingsOf(plan), settings);
  assert.equal(plan.fileBytes, settings.fileBytes);
  assert.equal(plan.runs.length, presets.runs.length * settings.count);
  // Passes keep the test, in the plan's order, and the engine's schema accepts the plan.
  assert.deepEqual(
    [...new Set(plan.runs.map((r) => testName(r.name)))],
    [...new Set(presets.runs.map((r) => testName(r.name)))],
  );
  assert.equal((parsePlan(plan) as PresetsPlan).runs.length, plan.runs.length);
  // Back to one pass gives the built-in runs again.
  assert.deepEqual(withGridSettings(plan, { ...settings, count: 1 }).runs, presets.runs);
  assert.throws(() => withGridSettings(presets, { fileBytes: 1e6, count: 1 }), /test size of/);
  assert.throws(() => withGridSettings(presets, { fileBytes: gridSizes[0]!, count: 0 }), /1 to 9/);
});

test('a size too small for a 1 MiB block at the scale is refused in words that say what works', () => {
  for (const fileBytes of gridSizes) {
    const plan = withGridSettings(presets, { fileBytes, count: 1 });
    const scaled = scalePlan(plan, 0.01) as PresetsPlan;
    const problem = gridSizeProblem(plan, 0.01, 'Quick (1 %)', formatBytes);
    // Refused exactly when the scaled file is under the largest block, as the engine needs.
    assert.equal(problem !== null, scaled.fileBytes < 1024 * 1024, `${fileBytes}: ${problem}`);
    if (problem) assert.match(problem, /choose a test size of 128 MiB or more, or a larger scale/);
  }
  assert.equal(gridSizeProblem(presets, 1, 'Full size', formatBytes), null);
});

test('the grid shows the best pass, in MB/s or IOPS, and copies as text line by line', () => {
  const plan = withGridSettings(presets, { fileBytes: gridSizes[0]!, count: 2 });
  const rate = () => 1e6 + Math.random() * 3e9;
  const results = plan.runs.map((run) => {
    const bytesPerSecond = rate();
    return {
      ...run,
      bytesPerSecond,
      iops: bytesPerSecond / run.blockSize,
      latency: { p50: 1e-4 },
    };
  });
  const rows = presetGrid(plan.runs, [], results as never);
  assert.equal(rows.length, 4);
  for (const row of rows)
    for (const [direction, cell] of [
      ['read', row.read],
      ['write', row.write],
    ] as const) {
      const best = Math.max(
        ...results
          .filter((r) => r.name.startsWith(`${row.test} ${direction}`))
          .map((r) => r.bytesPerSecond),
      );
      assert.equal(cell!.state, 'done');
      assert.equal(cell!.bytesPerSecond, best);
      assert.equal(gridFigure(cell, 'MB/s'), `${(best / 1e6).toFixed(2)} MB/s`);
      assert.match(gridFigure(cell, 'IOPS'), /^[\d,]+ IOPS$/);
    }
  // Halfway: a test with one pass done and one running is still running, at its best so far.
  const half = presetGrid(plan.runs, [
    { name: plan.runs[0]!.name, bytesPerSecond: 2e9, done: true },
    { name: plan.runs[1]!.name, bytesPerSecond: 1e9, done: false },
  ]);
  assert.deepEqual([half[0]!.read!.state, half[0]!.read!.bytesPerSecond], ['running', 2e9]);

  const text = gridText(rows, 'MB/s', {
    volume: '/Volumes/Card',
    startedAt: '2026-01-02T03:04:05Z',
  });
  assert.match(text, /^Volume: \/Volumes\/Card$/m);
  assert.match(text, /^Date: {3}\S/m);
  const lines = text.split('\n').filter((line) => /^ {2}(SEQ|RND)/.test(line));
  assert.deepEqual(
    lines.map((line) => line.trim().split(/ {2,}/)[0]),
    [...rows.map((r) => r.test), ...rows.map((r) => r.test)],
  );
  assert.ok(lines[0]!.includes(gridFigure(rows[0]!.read, 'MB/s')), lines[0]!);
  assert.ok(lines[4]!.includes(gridFigure(rows[0]!.write, 'MB/s')), lines[4]!);
});
