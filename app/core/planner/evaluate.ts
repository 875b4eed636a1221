/**
 * The planner's entry point: a validated scenario and the catalogue in, an evaluation of every
 * option out (cost, burst times, space, wear, warnings), with the crossover chart and a
 * recommendation. Pure: no I/O.
 */
import { PlumbError } from '../../contract/errors.js';
import type { Catalogue, DeviceProfile, Evaluation, Scenario } from '../../contract/planner.js';
import { allCrossovers, timeCurve } from './crossover.js';
import { deviceBook, priceTierFor, scenarioIssues } from './devices.js';
import { evaluateOption, type DiskModel, type OptionModel } from './option.js';
import { recommend } from './recommend.js';

/** The disk an option's chart curve is drawn for: where the first burst (or movable data) goes. */
function chartDisk(model: OptionModel, scenario: Scenario): DiskModel {
  const target = scenario.workload.bursts[0]?.target ?? 'movable';
  return target === 'movable' && model.disks.external ? model.disks.external : model.disks.internal;
}

/** Rounds a chart's end up to a size people read easily. */
function niceCeiling(bytes: number): number {
  const step = bytes <= 500e9 ? 50e9 : bytes <= 2e12 ? 250e9 : 1e12;
  return Math.ceil(bytes / step) * step;
}

function chartOf(models: readonly OptionModel[], scenario: Scenario): Evaluation['chart'] {
  const drawn = models
    .filter((m) => m.result.usable)
    .map((m) => {
      const disk = chartDisk(m, scenario);
      const freeBytes = disk.result.space[0]!.freeBytes;
      return { model: m, disk, freeBytes, cache: disk.cacheAt(freeBytes) };
    });
  const largestBurst = Math.max(0, ...scenario.workload.bursts.map((b) => b.size));
  // Only caches with a cliff make a corner worth showing; a cache with no slower rate does not.
  const largestCache = Math.max(
    0,
    ...drawn
      .filter((d) => d.disk.rates.afterCacheBytesPerSecond < d.disk.rates.inCacheBytesPerSecond)
      .map((d) => d.cache ?? 0),
  );
  const maxBytes = niceCeiling(Math.max(100e9, 2 * largestBurst, 1.5 * largestCache));
  const curves = drawn.map((d) => ({
    index: d.model.result.index,
    name: d.model.result.name,
    curve: timeCurve(d.disk.rates, d.cache, maxBytes, d.freeBytes),
  }));
  return {
    maxBytes,
    series: curves.map((c) => ({ option: c.index, name: c.name, points: c.curve })),
    crossovers: allCrossovers(curves),
  };
}

/** One line naming the field, and how many more problems there are. */
function issuesMessage(issues: readonly { path: string; message: string }[]): string {
  const [first] = issues;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${first!.path}: ${first!.message}${more}.`;
}

export function evaluateScenario(
  scenario: Scenario,
  catalogue: Catalogue,
  measured: readonly DeviceProfile[] = [],
): Evaluation {
  const book = deviceBook(catalogue, scenario, measured);
  const issues = scenarioIssues(scenario, catalogue, book);
  if (issues.length > 0) throw new PlumbError('EINVAL', issuesMessage(issues));

  const tier = priceTierFor(catalogue, scenario.host);
  const baseCapacityBytes =
    tier?.steps[0]?.capacityBytes ?? Math.min(...scenario.options.map((o) => o.internalCapacity));
  const models = scenario.options.map((option, index) =>
    evaluateOption(option, index, scenario, catalogue, book, baseCapacityBytes),
  );
  const chart = chartOf(models, scenario);
  const recommendation = recommend(models, scenario, catalogue, chart.crossovers);
  const used = new Set(models.flatMap((m) => [...m.sourceIds]));
  for (const option of models) {
    for (const warning of option.result.warnings) if (warning.source) used.add(warning.source);
  }
  return {
    scenario: {
      name: scenario.name,
      horizonYears: scenario.horizonYears,
      prefer: scenario.prefer,
    },
    options: models.map((m) => m.result),
    chart,
    recommendation,
    sources: [
      ...catalogue.sources.filter((s) => used.has(s.id)),
      ...[...book.ownSources.values()].filter((s) => used.has(s.id)),
    ],
  };
}
