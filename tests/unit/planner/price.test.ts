/**
 * Prices the planner does not know (issue 16): on a Windows PC or an Intel Mac there is no price
 * list for a bigger internal SSD, so the planner asks for it, never prices it at $0, never
 * recommends the option until it is given, and prices an SSD the user would fit at its own price.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Evaluation, ScenarioInput } from '../../../app/contract/planner.js';
import { builtInCatalogue } from '../../../app/core/planner/catalogue.js';
import { defaultScenario } from '../../../app/core/planner/defaults.js';
import { evaluateScenario } from '../../../app/core/planner/evaluate.js';
import { parseScenario } from '../../../app/core/planner/scenario-file.js';
import { withHost } from '../../../renderer/src/ui/planner/host.js';

const evaluate = (scenario: ScenarioInput) =>
  evaluateScenario(parseScenario(scenario), builtInCatalogue());
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

/** Every sentence the evaluation shows that speaks of money. */
function moneyText(evaluation: Evaluation): string[] {
  const { recommendation } = evaluation;
  return [recommendation.headline, ...recommendation.reasons].filter((t) => t.includes('$'));
}

/** The computer as it is today, with a bigger internal SSD and externals to compare. */
function unpricedHost(): { scenario: ScenarioInput; internalCapacity: number } {
  // Unknowns drawn at random: which computer without a price list, which bigger disk, how much data.
  const host: ScenarioInput['host'] = pick([
    { kind: 'windows-pc', port: pick(['tb4-usb4', 'usb32g2', 'usb32g2x2'] as const) },
    { kind: 'intel-mac', port: pick(['tb3', 'usb32g2'] as const) },
  ]);
  const internalCapacity = pick([2e12, 4e12]);
  const keepInternal = Math.round(100e9 + Math.random() * 300e9);
  return {
    internalCapacity,
    scenario: {
      host,
      data: { keepInternal, movable: Math.round(200e9 + Math.random() * 400e9) },
      workload: { bursts: [{ name: 'Import', size: '100GB' }] },
      options: [
        { name: 'Bigger internal', internalCapacity },
        {
          name: 'Keep 1 TB + USB 3.2',
          internalCapacity: '1TB',
          internalUpgradeUsd: 0,
          external: { device: 'samsung-t7-shield-2tb' },
        },
      ],
    },
  };
}

test('a bigger internal SSD without a price list asks for its price and is never $0', () => {
  for (let round = 0; round < 20; round += 1) {
    const { scenario } = unpricedHost();
    const evaluation = evaluate(scenario);
    const [bigger, split] = evaluation.options;
    assert.equal(bigger!.costUsd, null, 'an unknown price is not a number');
    assert.equal(bigger!.costRangeUsd, null);
    assert.equal(bigger!.costPerAddedTbUsd, null);
    assert.deepEqual(
      bigger!.missingPrices.map((m) => [m.path, m.disk]),
      [['options.0.internalUpgradeUsd', 'internal']],
    );
    assert.match(bigger!.missingPrices[0]!.message, /is not known; give internalUpgradeUsd/);
    assert.equal(split!.costUsd, 130, 'keeping the disk it has plus a T7 Shield at its price');
    assert.notEqual(evaluation.recommendation.option, 0, 'an unpriced option is not recommended');
    assert.ok(
      evaluation.recommendation.reasons.some((r) =>
        /Bigger internal is not compared on cost until you give its internal price \(options\.0\.internalUpgradeUsd\)/.test(
          r,
        ),
      ),
      'the reasons say which price to give',
    );
    for (const text of moneyText(evaluation)) assert.doesNotMatch(text, /\$0\b/, text);
  }
});

test('the price once given counts, and is named as the user’s', () => {
  const { scenario } = unpricedHost();
  const price = 100 + Math.round(Math.random() * 300);
  scenario.options[0] = { ...scenario.options[0]!, internalUpgradeUsd: price };
  const evaluation = evaluate(scenario);
  assert.equal(evaluation.options[0]!.costUsd, price);
  assert.deepEqual(evaluation.options[0]!.missingPrices, []);
});

test('when no option has a price, nothing is recommended and the headline asks for the prices', () => {
  const { scenario, internalCapacity } = unpricedHost();
  scenario.options = [
    { name: 'Bigger internal', internalCapacity },
    {
      name: 'Keep + OWC Envoy Pro',
      internalCapacity: '1TB',
      internalUpgradeUsd: 0,
      external: { device: 'owc-envoy-pro-sx-2tb' },
    },
  ];
  const evaluation = evaluate(scenario);
  assert.equal(evaluation.recommendation.option, null);
  assert.match(evaluation.recommendation.headline, /Give the prices Plumb does not know/);
  assert.deepEqual(
    evaluation.options.map((o) => o.missingPrices.map((m) => m.path)),
    [['options.0.internalUpgradeUsd'], ['options.1.external.priceUsd']],
  );
});

test('an SSD of the user’s own, fitted inside, is the internal disk at its own price', () => {
  const { scenario } = unpricedHost();
  const priceUsd = 120 + Math.round(Math.random() * 200);
  scenario.devices = [
    {
      id: 'mine-990-evo-plus',
      name: 'My 990 EVO Plus',
      interface: 'nvme-internal',
      placement: 'internal',
      capacityBytes: '2TB',
      priceUsd,
      writeBytesPerSecond: 5e9,
      afterCacheWriteBytesPerSecond: 1.5e9,
      cacheKind: 'dynamic-tlc',
      cacheBytes: '200GB',
    },
  ];
  scenario.options[0] = {
    name: 'Fit my 2 TB SSD',
    internalCapacity: '2TB',
    internalDevice: 'mine-990-evo-plus',
  };
  const evaluation = evaluate(scenario);
  const fitted = evaluation.options[0]!;
  assert.equal(fitted.costUsd, priceUsd);
  assert.equal(fitted.disks[0]!.device.name, 'My 990 EVO Plus');
  assert.ok(evaluation.sources.some((s) => s.id === 'yours-1' && s.where.includes(`$${priceUsd}`)));

  // The same SSD at another capacity is another disk: the form must say so.
  scenario.options[0] = { ...scenario.options[0], internalCapacity: '4TB' };
  assert.throws(
    () => evaluate(scenario),
    /options\.0\.internalCapacity: My 990 EVO Plus holds 2 TB/,
  );
  // An external SSD of the user's cannot be fitted inside.
  scenario.devices[0] = { ...scenario.devices[0]!, interface: 'usb4', placement: 'external' };
  scenario.options[0] = { ...scenario.options[0], internalCapacity: '2TB' };
  assert.throws(() => evaluate(scenario), /options\.0\.internalDevice: .* is an external SSD/);
});

test('an Apple price list without the capacity, and an external SSD without a price, ask too', () => {
  const evaluation = evaluate({
    host: { kind: 'apple-silicon', port: 'tb5' },
    data: { keepInternal: '250GB', movable: '400GB' },
    workload: { bursts: [{ name: 'Import', size: '100GB' }] },
    options: [
      { internalCapacity: '768GB' },
      { internalCapacity: '512GB', external: { device: 'owc-envoy-pro-sx-2tb' } },
      { internalCapacity: '512GB', external: { device: 'tb5-2tb' } },
    ],
  });
  const [odd, unlisted, priced] = evaluation.options;
  assert.match(
    odd!.missingPrices[0]!.message,
    /has no price for 768 GB \(it has 512 GB, 1 TB, 2 TB\); pick one of those capacities or give internalUpgradeUsd/,
  );
  assert.match(unlisted!.missingPrices[0]!.message, /the sources give no price .*give priceUsd/);
  assert.equal(unlisted!.missingPrices[0]!.path, 'options.1.external.priceUsd');
  assert.equal(priced!.costUsd, 400);
  assert.equal(evaluation.recommendation.option, 2);
});

test('the form switching a Mac plan to a PC keeps the bigger SSD unpriced, not $0', () => {
  const catalogue = builtInCatalogue();
  const mac = parseScenario(
    defaultScenario({ platform: 'darwin', arch: 'arm64', usedBytes: 300e9, measured: [] }).scenario,
  );
  const pc = withHost(mac, catalogue, { kind: pick(['windows-pc', 'intel-mac'] as const) });
  assert.ok(
    pc.options.every((o) => o.internalUpgradeUsd === undefined),
    'no price is made up when the computer changes',
  );
  const evaluation = evaluateScenario(pc, catalogue);
  const bigger = evaluation.options.findIndex((o) => o.name === '2 TB internal');
  assert.ok(bigger >= 0);
  assert.equal(evaluation.options[bigger]!.costUsd, null);
  assert.notEqual(evaluation.recommendation.option, bigger);
  assert.doesNotMatch(evaluation.recommendation.headline, /2 TB internal/);
  for (const text of moneyText(evaluation)) assert.doesNotMatch(text, /\$0\b/, text);
});
