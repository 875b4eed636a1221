// The worked examples of the seeds, reproduced exactly from the catalogue and the example files.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { builtInCatalogue } from '../../../app/core/planner/catalogue.js';
import { evaluateScenario } from '../../../app/core/planner/evaluate.js';
import { loadScenarioFile } from '../../../app/core/planner/scenario-file.js';
import { repoRoot } from '../../helpers/cli.js';

const example = (name: string) => path.join(repoRoot, 'examples', 'scenarios', name);

test('seed 003: 100 GB to the TB5 SSD (50 GB cache, 5.5 → 1.4 GB/s) takes 44.8 s', async () => {
  const evaluation = evaluateScenario(
    await loadScenarioFile(example('tb5-vs-usb4-100gb.json')),
    builtInCatalogue(),
  );
  const tb5 = evaluation.options[0]!.bursts[0]!;
  assert.equal(tb5.bytes, 100e9);
  assert.equal(tb5.disk, 'external');
  assert.equal(tb5.inCacheBytes, 50e9);
  assert.equal(tb5.afterCacheBytes, 50e9);
  assert.equal(Number(tb5.totalSeconds.toFixed(1)), 44.8);
  assert.ok(Math.abs(tb5.totalSeconds - (50 / 5.5 + 50 / 1.4)) < 1e-9);
});

test('seed 003: the same 100 GB to the USB4 SSD at 3.7 GB/s with > 100 GB cache takes 27 s, 60 %', async () => {
  const evaluation = evaluateScenario(
    await loadScenarioFile(example('tb5-vs-usb4-100gb.json')),
    builtInCatalogue(),
  );
  const [tb5, usb4] = evaluation.options.map((o) => o.bursts[0]!);
  assert.equal(Math.round(usb4!.totalSeconds), 27);
  assert.ok(Math.abs(usb4!.totalSeconds - 100 / 3.7) < 1e-9);
  assert.equal(usb4!.afterCacheBytes, 0);
  assert.equal(Math.round((usb4!.totalSeconds / tb5!.totalSeconds) * 100), 60);
  // The bigger cache over the slower link overtakes past about 60 GB.
  const [crossing] = evaluation.chart.crossovers;
  assert.ok(crossing);
  assert.equal(crossing.fasterBelow, 0);
  assert.equal(crossing.fasterAbove, 1);
  const exact = (50 / 1.4 - 50 / 5.5) / (1 / 1.4 - 1 / 3.7);
  assert.ok(Math.abs(crossing.bytes / 1e9 - exact) < 1e-6, `crossing at ${crossing.bytes}`);
});

test('seed 000: 512 GB + 2 TB TB5 external saves about $200-220 over 2 TB internal', async () => {
  const evaluation = evaluateScenario(
    await loadScenarioFile(example('small-internal-vs-2tb.json')),
    builtInCatalogue(),
  );
  const [internal, split] = evaluation.options;
  assert.equal(internal!.costUsd, 600);
  assert.deepEqual(split!.costRangeUsd, [380, 400]);
  const saving = [
    internal!.costRangeUsd![0] - split!.costRangeUsd![1],
    internal!.costRangeUsd![1] - split!.costRangeUsd![0],
  ];
  assert.deepEqual(saving, [200, 220]);
  assert.equal(evaluation.recommendation.option, 1);
  assert.match(evaluation.recommendation.reasons[0]!, /\$200–220 less than 2 TB internal/);
});

test('every example scenario evaluates, and every source it cites is in the catalogue', async () => {
  const catalogue = builtInCatalogue();
  for (const name of [
    'tb5-vs-usb4-100gb.json',
    'small-internal-vs-2tb.json',
    'intel-mac-and-dock.json',
    'repeated-imports.json',
  ]) {
    const evaluation = evaluateScenario(await loadScenarioFile(example(name)), catalogue);
    assert.ok(evaluation.options.length >= 2, name);
    assert.ok(evaluation.sources.length > 0, name);
    const known = new Set(catalogue.sources.map((s) => s.id));
    for (const option of evaluation.options) {
      for (const warning of option.warnings) {
        if (warning.source) assert.ok(known.has(warning.source), `${name}: ${warning.source}`);
      }
    }
  }
});
