/**
 * The recommendation in plain language: which option, why (cost, time, space, wear, what was set
 * aside), and the assumptions it rests on.
 */
import type { Catalogue, Crossover, Evaluation, Scenario } from '../../contract/planner.js';
import type { OptionModel } from './option.js';
import { formatSeconds, formatSize, formatUsdRange } from '../../common/format.js';
import { yearsWords } from '../../common/plan-words.js';

/** An option's cost for ranking; only priced options are ranked, so null never reaches here. */
const costOf = (model: OptionModel) => model.result.costUsd ?? Number.POSITIVE_INFINITY;
const rangeOf = (model: OptionModel): readonly [number, number] =>
  model.result.costRangeUsd ?? [costOf(model), costOf(model)];

/** One short line per price to give; the option itself carries the full sentence. */
function missingPriceLines(models: readonly OptionModel[]): string[] {
  return models.flatMap((m) =>
    m.result.missingPrices.map(
      (missing) =>
        `${m.result.name} is not compared on cost until you give its ${missing.disk} price (${missing.path}).`,
    ),
  );
}

function byPreference(prefer: Scenario['prefer']) {
  return (a: OptionModel, b: OptionModel) => {
    const cost = costOf(a) - costOf(b);
    const time = a.result.totalBurstSeconds - b.result.totalBurstSeconds;
    return prefer === 'cost' ? cost || time || a.result.index - b.result.index : time || cost;
  };
}

function generalAssumptions(
  scenario: Scenario,
  catalogue: Catalogue,
  models: readonly OptionModel[],
): string[] {
  const list = [
    `Prices are in US dollars as of ${catalogue.asOf}; an internal option costs its upgrade over the base model, an external one the price of the disk.`,
    'In options with an external disk, the movable data (libraries, projects) lives there and everything else stays internal.',
    `Data grows at a steady rate; bursts are timed at today's fill level, and again at the end of year ${scenario.horizonYears}.`,
  ];
  if (scenario.workload.bursts.some((b) => b.repeat > 1)) {
    list.push('An idle cache empties at a steady pace over its recovery time.');
  }
  if (models.some((m) => m.result.disks.some((d) => d.tbwAssumed))) {
    const proxy = catalogue.rules.tbwPerCapacityProxy;
    list.push(
      `Disks without a published endurance (Apple's) are given ${proxy.value} TB written per TB of capacity, as rated for the Samsung 990 Pro and WD SN850X.`,
    );
  }
  if (models.some((m) => m.result.disks.some((d) => d.device.origin === 'measured'))) {
    list.push(
      'Measured profiles keep the rates, cliff and recovery of the saved benchmark result.',
    );
  }
  return list;
}

export function recommend(
  models: readonly OptionModel[],
  scenario: Scenario,
  catalogue: Catalogue,
  crossovers: readonly Crossover[],
): Evaluation['recommendation'] {
  const assumptions = [
    ...new Set([
      ...generalAssumptions(scenario, catalogue, models),
      ...models.flatMap((m) => m.assumptions),
    ]),
  ];
  // An option whose price is unknown is never recommended: it could cost anything.
  const meeting = models
    .filter((m) => m.result.meetsRules && m.result.costUsd !== null)
    .sort(byPreference(scenario.prefer));
  const unpriced = missingPriceLines(models.filter((m) => m.result.costUsd === null));
  const setAside = models
    .filter((m) => !m.result.meetsRules)
    .map((m) => {
      const problem = m.result.warnings.find((w) =>
        /(below|full|wear|too-slow|needs|does-not-fit|usb-main-storage)/.test(w.code),
      );
      return `Set aside ${m.result.name}: ${problem?.message ?? 'it does not meet the rules.'}`;
    });
  const best = meeting[0];
  if (!best && unpriced.length > 0) {
    return {
      option: null,
      headline: 'Give the prices Plumb does not know, then it can recommend an option.',
      reasons: [...unpriced, ...setAside],
      assumptions,
    };
  }
  if (!best) {
    return {
      option: null,
      headline: `None of these options meets the free-space, wear and speed rules over ${scenario.horizonYears} years.`,
      reasons: [...setAside, 'Try a larger internal or external disk, or move more data out.'],
      assumptions,
    };
  }

  const reasons: string[] = [];
  const others = meeting.filter((m) => m !== best);
  const dearest = [...others].sort((a, b) => costOf(b) - costOf(a))[0];
  const costText = formatUsdRange(rangeOf(best));
  if (dearest && costOf(dearest) > costOf(best)) {
    const saving: [number, number] = [
      rangeOf(dearest)[0] - rangeOf(best)[1],
      rangeOf(dearest)[1] - rangeOf(best)[0],
    ];
    reasons.push(
      `It costs ${costText}, about ${formatUsdRange(saving)} less than ${dearest.result.name}.`,
    );
  } else if (others.length > 0) {
    reasons.push(
      `It costs ${costText}, ${scenario.prefer === 'speed' ? 'and you asked for speed first' : 'no more than the other options that meet the rules'}.`,
    );
  } else {
    reasons.push(`It costs ${costText} and is the only option that meets the rules.`);
  }

  const fastest = [...meeting].sort(byPreference('speed'))[0]!;
  for (const burst of best.result.bursts.slice(0, 3)) {
    const index = best.result.bursts.indexOf(burst);
    const rival = fastest.result.bursts[index];
    const comparison =
      fastest !== best && rival && rival.totalSeconds < burst.totalSeconds
        ? ` (${formatSeconds(rival.totalSeconds)} on ${fastest.result.name})`
        : others.length > 0
          ? ', the fastest of the options'
          : '';
    const cliff =
      burst.afterCacheBytes > 0
        ? `; ${formatSize(burst.afterCacheBytes)} of it is written after the cache is full`
        : '';
    reasons.push(
      burst.fits
        ? `"${burst.name}" takes ${formatSeconds(burst.totalSeconds)}${comparison}${cliff}.`
        : `"${burst.name}" does not fit in the ${burst.disk} disk's free space.`,
    );
  }

  for (const disk of best.result.disks) {
    const least = disk.space.reduce((a, b) => (b.freeBytes < a.freeBytes ? b : a));
    const share = Math.round((least.freeBytes / disk.capacityBytes) * 100);
    reasons.push(
      `The ${disk.role} disk keeps at least ${formatSize(least.freeBytes)} (${share} %) free through year ${scenario.horizonYears}.`,
    );
  }
  const lives = best.result.disks
    .filter((d) => d.wearLifeYears !== null)
    .map((d) => `${yearsWords(d.wearLifeYears!)} on the ${d.role} disk`);
  if (lives.length > 0)
    reasons.push(`Rated endurance lasts about ${lives.join(' and ')} at your daily writes.`);

  for (const crossing of crossovers) {
    const involvesBest =
      crossing.fasterBelow === best.result.index || crossing.fasterAbove === best.result.index;
    const other = models.find(
      (m) =>
        m !== best &&
        (m.result.index === crossing.fasterBelow || m.result.index === crossing.fasterAbove),
    );
    if (!involvesBest || !other || !other.result.meetsRules) continue;
    reasons.push(
      crossing.fasterAbove === best.result.index
        ? `Above ${formatSize(crossing.bytes)} per burst it overtakes ${other.result.name}.`
        : `Above ${formatSize(crossing.bytes)} per burst ${other.result.name} is faster.`,
    );
  }
  for (const warning of best.result.warnings) reasons.push(`Watch out: ${warning.message}`);
  reasons.push(...unpriced, ...setAside);

  return {
    option: best.result.index,
    headline: `Choose ${best.result.name}.`,
    reasons,
    assumptions,
  };
}
