import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Plan, type FilesPlan } from '../../../app/contract/plan.js';
import { builtinPlan, builtinPlans } from '../../../app/core/bench/builtin-plans.js';
import { logUniformSizes, toBlocks } from '../../../app/common/run-sizes.js';
import { planFileSizes } from '../../../app/core/bench/plan-kind-files.js';
import { loadPlan, parsePlan, scalePlan } from '../../../app/core/bench/plans.js';
import { seededRandom, shuffled } from '../../../app/core/bench/seeded-random.js';

describe('seededRandom / shuffled', () => {
  it('repeats the same sequence for the same seed', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const first = [a(), a(), a()];
    assert.deepEqual(first, [b(), b(), b()]);
    assert.ok(first.every((x) => x >= 0 && x < 1));
    assert.notDeepEqual(first, [seededRandom(43)(), 0, 0].slice(0, 3));
  });
  it('shuffles into a permutation, the same for the same seed', () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const once = shuffled(items, seededRandom(1));
    assert.deepEqual(
      [...once].sort((x, y) => x - y),
      items,
    );
    assert.notDeepEqual(once, items);
    assert.deepEqual(shuffled(items, seededRandom(1)), once);
  });
});

describe('file sizes', () => {
  it('spreads sizes evenly on a log scale, in whole 4 KiB blocks', () => {
    const sizes = logUniformSizes(160, 2e6, 2e9);
    assert.equal(sizes.length, 160);
    assert.equal(sizes[0], toBlocks(2e6));
    assert.equal(sizes.at(-1), toBlocks(2e9));
    assert.ok(sizes.every((s) => s % 4096 === 0));
    // The middle size is the geometric mean of the ends: √(2e6 · 2e9) ≈ 63.2 MB.
    assert.ok(Math.abs(sizes[79]! / Math.sqrt(2e6 * 2e9) - 1) < 0.03);
  });
  it('the standard plan writes 160 files, shuffled by its seed', () => {
    const standard = builtinPlan('standard') as FilesPlan;
    const a = planFileSizes(standard, 9);
    assert.equal(a.length, 160);
    assert.deepEqual(planFileSizes(standard, 9), a);
    assert.notDeepEqual(planFileSizes(standard, 10), a);
    assert.deepEqual(
      [...a].sort((x, y) => x - y),
      logUniformSizes(160, 2e6, 2e9),
    );
  });
  it('the series plan repeats each of its 14 sizes', () => {
    const series = builtinPlan('series') as FilesPlan;
    const sizes = planFileSizes(series, 0);
    assert.equal(sizes.length, 14 * 3);
    assert.deepEqual(sizes.slice(0, 4), [10e3, 10e3, 10e3, 100e3]);
    assert.equal(sizes.at(-1), 2e9);
  });
});

describe('plans', () => {
  it('every built-in plan is a valid plumb.plan/1 plan', () => {
    assert.deepEqual(
      builtinPlans.map((p) => p.name),
      ['standard', 'series', 'sustained', 'capacity', 'presets', 'paired', 'task'],
    );
    for (const plan of builtinPlans) assert.doesNotThrow(() => Plan.parse(plan), plan.name);
  });
  it('rejects a bad plan, naming the problem', () => {
    assert.throws(
      () => parsePlan({ schema: 'plumb.plan/1', name: 'x', kind: 'files' }),
      /needs "sizes" or "logUniform"/,
    );
    assert.throws(
      () => parsePlan({ schema: 'plumb.plan/2', name: 'x' }),
      /not a valid plumb\.plan\/1/,
    );
  });
  it('fills in defaults of a user plan', () => {
    const plan = parsePlan({ schema: 'plumb.plan/1', name: 'mine', kind: 'files', sizes: [4096] });
    assert.equal(plan.kind === 'files' && plan.repeats, 1);
    assert.equal(plan.kind === 'files' && plan.readBack, true);
  });
  it('loads built-ins by name and plans from JSON files', async () => {
    assert.equal((await loadPlan('series')).name, 'series');
    await assert.rejects(loadPlan('nonsense'), /Unknown plan "nonsense"/);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'plumb-plan-'));
    try {
      const file = path.join(dir, 'p.json');
      await writeFile(
        file,
        JSON.stringify({ schema: 'plumb.plan/1', name: 'p', kind: 'files', sizes: [8192, 4096] }),
      );
      assert.deepEqual(((await loadPlan(file)) as FilesPlan).sizes, [8192, 4096]);
      await writeFile(file, '{nope');
      await assert.rejects(loadPlan(file), /not JSON/);
      await assert.rejects(loadPlan(path.join(dir, 'missing.json')), /Cannot read the plan file/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it('scales every size, but never below one block', () => {
    const standard = scalePlan(builtinPlan('standard')!, 0.001);
    assert.deepEqual(standard.kind === 'files' && standard.logUniform, {
      count: 160,
      minBytes: 4096,
      maxBytes: toBlocks(2e6),
    });
    const sustained = scalePlan(builtinPlan('sustained')!, 0.01);
    assert.ok(sustained.kind === 'sustained');
    assert.equal(sustained.minFileBytes, toBlocks(2e6));
    assert.equal(sustained.recovery?.probeBytes, toBlocks(20e6));
    assert.equal(sustained.recovery?.idleSeconds, 30);
    const presets = scalePlan(builtinPlan('presets')!, 0.001);
    assert.ok(presets.kind === 'presets' && presets.durationSeconds === 0.25);
    assert.throws(() => scalePlan(builtinPlan('series')!, 2), /scale/);
  });
});
