import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ScenarioInput } from '../../../app/contract/planner.js';
import { builtInCatalogue } from '../../../app/core/planner/catalogue.js';
import { evaluateScenario } from '../../../app/core/planner/evaluate.js';
import { formatSeconds } from '../../../app/common/format.js';
import { parseScenario } from '../../../app/core/planner/scenario-file.js';

const base: ScenarioInput = {
  host: { kind: 'apple-silicon', port: 'tb5' },
  data: {
    keepInternal: '250GB',
    movable: '700GB',
    internalGrowthPerYear: '20GB',
    movableGrowthPerYear: '80GB',
  },
  workload: {
    bursts: [{ name: 'Import 100 GB of video', size: '100GB' }],
    dailyWritesInternal: '20GB',
  },
  options: [
    { name: '2 TB internal', internalCapacity: '2TB' },
    { name: '512 GB + TB5', internalCapacity: '512GB', external: { device: 'tb5-2tb' } },
    { name: '512 GB + USB4', internalCapacity: '512GB', external: { device: 'usb4-990-pro-2tb' } },
  ],
};
const evaluate = (scenario: ScenarioInput) =>
  evaluateScenario(parseScenario(scenario), builtInCatalogue());

test('prefer cost: the cheapest option that meets every rule, with its reasons', () => {
  const { recommendation, options } = evaluate(base);
  assert.equal(recommendation.option, 2);
  assert.equal(recommendation.headline, 'Choose 512 GB + USB4.');
  assert.match(
    recommendation.reasons[0]!,
    /costs \$320–350, about \$250–280 less than 2 TB internal/,
  );
  assert.ok(
    recommendation.reasons.some((r) => /takes 27\.0 s \(13\.0 s on 2 TB internal\)/.test(r)),
  );
  assert.ok(recommendation.reasons.some((r) => /internal disk keeps at least/.test(r)));
  assert.ok(recommendation.assumptions.some((a) => /US dollars as of 2026-01/.test(a)));
  assert.ok(options.every((o) => o.meetsRules));
});

test('prefer speed: the fastest option that meets the rules', () => {
  assert.equal(evaluate({ ...base, prefer: 'speed' }).recommendation.option, 0);
});

test('an option that breaks the free-space rule is set aside, and says why', () => {
  const tight = evaluate({ ...base, data: { ...base.data, keepInternal: '420GB' } });
  const small = tight.options.filter((o) => o.name.startsWith('512'));
  for (const option of small) {
    assert.equal(option.meetsRules, false);
    assert.equal(option.disks[0]!.firstShortYear, 0);
  }
  assert.equal(tight.recommendation.option, 0);
  assert.ok(
    tight.recommendation.reasons.some((r) =>
      /^Set aside 512 GB \+ TB5: The internal disk falls below 20 %/.test(r),
    ),
  );
});

test('a speed limit sets slow options aside; when nothing is left, no option is recommended', () => {
  const limited = evaluate({ ...base, maxBurstSeconds: 30 });
  assert.equal(limited.options[1]!.meetsRules, false);
  assert.equal(limited.recommendation.option, 2);
  const none = evaluate({ ...base, maxBurstSeconds: 5 });
  assert.equal(none.recommendation.option, null);
  assert.match(none.recommendation.headline, /None of these options/);
});

test('heavy daily writes on a small internal SSD: wear life is flagged against the horizon', () => {
  const heavy = evaluate({ ...base, workload: { ...base.workload, dailyWritesInternal: '300GB' } });
  const small = heavy.options[1]!;
  const internal = small.disks[0]!;
  assert.ok(internal.tbwAssumed);
  assert.ok(internal.wearLifeYears! < 4);
  assert.ok(small.warnings.some((w) => w.code === 'internal-wear'));
  assert.equal(small.meetsRules, false);
});

test('the fill level at the end of the horizon shrinks the cache and slows the burst', () => {
  const full = evaluate({
    ...base,
    data: { keepInternal: '250GB', movable: '1.5TB', movableGrowthPerYear: '100GB' },
    options: [{ name: 'TB5', internalCapacity: '512GB', external: { device: 'tb5-2tb' } }],
  });
  const burst = full.options[0]!.bursts[0]!;
  assert.equal(burst.cacheBytesAvailable, 50e9);
  // 2 TB − 1.9 TB = 100 GB free in year 4: the cache is at most a third of it.
  assert.ok(Math.abs(burst.cacheBytesAtHorizon! - 100e9 / 3) < 1);
  assert.ok(burst.totalSecondsAtHorizon > burst.totalSeconds);
  assert.ok(full.options[0]!.warnings.some((w) => /shrinks to about 33 GB/.test(w.message)));
});

test('formatSeconds reads like a person would say it', () => {
  assert.equal(formatSeconds(44.805), '44.8 s');
  assert.equal(formatSeconds(3.9), '3.90 s');
  assert.equal(formatSeconds(185), '3 min 5 s');
  assert.equal(formatSeconds(3720), '1 h 2 min');
});
