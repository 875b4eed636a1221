import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planDescription, runPlanDescription } from '../../../app/common/plan-description.js';
import {
  isQuickRun,
  quickRunLabel,
  quickRunCaveat,
  quickRunNote,
  runScale,
  scalePercent,
} from '../../../app/common/quick-run.js';
import { builtinPlan, builtinPlans } from '../../../app/core/bench/builtin-plans.js';
import { scalePlan } from '../../../app/core/bench/plans.js';

describe('quick runs', () => {
  it('reads the scale from the top level first, then from the plan, else 1', () => {
    assert.equal(runScale({ scale: 0.5, plan: { scale: 0.1 } }), 0.5);
    assert.equal(runScale({ plan: { scale: 0.1 } }), 0.1);
    assert.equal(runScale({ plan: {} }), 1);
    assert.equal(runScale({ scale: 'x', plan: { scale: 7 } }), 1);
    assert.equal(isQuickRun({ plan: { scale: 0.01 } }), true);
    assert.equal(isQuickRun({ scale: 1, plan: {} }), false);
  });

  it('labels a quick run with its share of the full plan, and a full run not at all', () => {
    assert.equal(scalePercent(0.01), '1 %');
    assert.equal(scalePercent(0.001), '0.1 %');
    assert.equal(scalePercent(0.25), '25 %');
    assert.equal(quickRunLabel({ plan: { scale: 0.01 } }), 'Quick run (1 %)');
    assert.equal(quickRunLabel({ plan: {} }), null);
    assert.match(quickRunNote({ scale: 0.1, plan: {} })!, /^Quick run at 10 % .*caches/);
    assert.equal(quickRunNote({ plan: {} }), null);
    assert.match(quickRunCaveat({ scale: 0.1, plan: {} })!, /^Small files .*caches/);
    assert.doesNotMatch(quickRunCaveat({ scale: 0.1, plan: {} })!, /quick run/i);
    assert.equal(quickRunCaveat({ plan: {} }), null);
  });
});

describe('plan descriptions of scaled plans', () => {
  it("gives the sizes a 1 % grid run actually used, not the full plan's", () => {
    const grid = scalePlan(builtinPlan('presets')!, 0.01);
    assert.match(
      grid.description!,
      /^At 1 % of the full plan: .* 0\.25 s each on a 10\.7 MB file\.$/,
    );
    assert.doesNotMatch(grid.description!, /1 GiB|[^.\d]5 s each/);
  });

  it('names, for every built-in plan at a drawn scale, the scaled sizes', () => {
    const scale = 0.001 + Math.random() * 0.5;
    for (const plan of builtinPlans) {
      const scaled = scalePlan(plan, scale);
      assert.ok(scaled.description!.startsWith(`At ${scalePercent(scale)} of the full plan: `));
      assert.equal(scaled.description, runPlanDescription(scaled, scale));
      assert.ok(scaled.description!.endsWith(planDescription(scaled)));
      assert.doesNotMatch(scaled.description!, /undefined|NaN|—/, scaled.description);
    }
    const standard = scalePlan(builtinPlan('standard')!, 0.01);
    assert.match(standard.description!, /160 files of 20\.5 KB to 20\.0 MB/);
  });

  it("keeps a full run's own words, and rewrites a stored quick run's full-plan words", () => {
    const full = builtinPlan('presets')!;
    assert.equal(runPlanDescription(full, 1), full.description);
    const stored = { ...scalePlan(full, 0.01), description: full.description };
    assert.match(runPlanDescription(stored, 0.01), /10\.7 MB file/);
    assert.equal(runPlanDescription({ name: 'read-folder' }, 0.5), '');
  });
});
