import type { DiskResult, Evaluation, OptionResult, Scenario } from '../../contract/planner.js';
import { builtInCatalogue } from '../../core/planner/catalogue.js';
import type { DeviceStore } from '../../core/planner/device-store.js';
import { evaluateWithSavedResults, measuredProfiles } from '../../core/planner/measured.js';
import { formatGbPerSecond, formatSeconds, formatSize } from '../../common/format.js';
import { costWords, yearsWords } from '../../common/plan-words.js';
import { loadScenarioFile } from '../../core/planner/scenario-file.js';
import { parseCommandArgs } from '../args.js';
import { exitCode, UsageError, type Command } from '../command.js';

function costText(option: OptionResult): string {
  // An unknown price is said as such, with the field to fill, never printed as $0.
  if (option.costUsd === null || option.costRangeUsd === null) {
    return `price unknown (give ${option.missingPrices.map((m) => m.path).join(' and ')})`;
  }
  const { figure, detail } = costWords(option.costRangeUsd, option.costPerAddedTbUsd);
  return `${figure} (${detail})`;
}

function diskLine(disk: DiskResult, horizon: number): string {
  const writes =
    disk.afterCacheWriteBytesPerSecond < disk.writeBytesPerSecond
      ? `write ${formatGbPerSecond(disk.writeBytesPerSecond)} → ${formatGbPerSecond(disk.afterCacheWriteBytesPerSecond)} after cache`
      : `write ${formatGbPerSecond(disk.writeBytesPerSecond)}`;
  const via = disk.role === 'external' ? ` via ${disk.link.modeName}` : '';
  const now = disk.space[0]!;
  const end = disk.space[horizon]!;
  const free = (y: typeof now) =>
    `${formatSize(Math.max(0, y.freeBytes))} (${Math.round((Math.max(0, y.freeBytes) / disk.capacityBytes) * 100)} %)`;
  const wear =
    disk.wearLifeYears === null
      ? ''
      : `; wear life about ${yearsWords(disk.wearLifeYears)}${disk.tbwAssumed ? ' (endurance assumed)' : ''}`;
  return [
    `   ${disk.role.padEnd(9)}${disk.device.name}, ${formatSize(disk.capacityBytes)}${via}; ${writes}`,
    `            free ${free(now)} now, ${free(end)} in year ${horizon} [${end.status}]${wear}`,
  ].join('\n');
}

/** The evaluation as a report people read in a terminal. */
export function planReport(evaluation: Evaluation): string {
  const lines: string[] = [];
  const { scenario } = evaluation;
  lines.push(
    `${scenario.name}`,
    `horizon ${scenario.horizonYears} years, prefer ${scenario.prefer}`,
    '',
  );
  for (const option of evaluation.options) {
    const mark = evaluation.recommendation.option === option.index ? '  ← recommended' : '';
    lines.push(`${option.index + 1}. ${option.name}: ${costText(option)}${mark}`);
    for (const disk of option.disks) lines.push(diskLine(disk, scenario.horizonYears));
    for (const burst of option.bursts) {
      const split =
        burst.afterCacheBytes > 0 &&
        option.disks.some((d) => d.afterCacheWriteBytesPerSecond < d.writeBytesPerSecond)
          ? ` (${formatSize(burst.inCacheBytes)} in cache, ${formatSize(burst.afterCacheBytes)} after)`
          : '';
      const later =
        burst.fits && Math.abs(burst.totalSecondsAtHorizon - burst.totalSeconds) > 0.05
          ? `; ${formatSeconds(burst.totalSecondsAtHorizon)} in year ${scenario.horizonYears}`
          : '';
      const each = !burst.fits
        ? ': does not fit in the free space'
        : burst.seconds.length > 1
          ? ` ×${burst.seconds.length}, ${formatSeconds(burst.totalSeconds)} in all (${burst.seconds.map(formatSeconds).join(', ')})`
          : `: ${formatSeconds(burst.totalSeconds)}`;
      lines.push(`   ${burst.name}${each}${split}${later}`);
    }
    for (const missing of option.missingPrices)
      lines.push(`   ? ${missing.path}: ${missing.message}.`);
    for (const warning of option.warnings) lines.push(`   ! ${warning.message}`);
    lines.push('');
  }
  const names = new Map(evaluation.options.map((o) => [o.index, o.name]));
  if (evaluation.chart.crossovers.length > 0) {
    lines.push('Crossovers (time against burst size):');
    for (const c of evaluation.chart.crossovers) {
      lines.push(
        `   at ${formatSize(c.bytes)} (${formatSeconds(c.seconds)}): ${names.get(c.fasterBelow)} is faster below, ${names.get(c.fasterAbove)} above`,
      );
    }
    lines.push('');
  }
  const { recommendation } = evaluation;
  lines.push(recommendation.headline);
  for (const reason of recommendation.reasons) lines.push(`   - ${reason}`);
  lines.push('', 'Assumptions:');
  for (const assumption of recommendation.assumptions) lines.push(`   - ${assumption}`);
  lines.push('', 'Sources:');
  for (const source of evaluation.sources)
    lines.push(`   [${source.id}] ${source.title}. ${source.where}.`);
  return `${lines.join('\n')}\n`;
}

/**
 * The devices saved in the app (Planner → your own SSDs) that the scenario's options name by id
 * but the file does not define, added to it; the file's own definitions win.
 */
export async function withSavedDevices(
  scenario: Scenario,
  devices: DeviceStore,
): Promise<Scenario> {
  const defined = new Set([
    ...scenario.devices.map((d) => d.id),
    ...builtInCatalogue().devices.map((d) => d.id),
  ]);
  const missing = new Set(
    scenario.options
      .flatMap((o) => [o.internalDevice, o.external?.device])
      .filter((id): id is string => id !== undefined && !defined.has(id)),
  );
  if (missing.size === 0) return scenario;
  const saved = (await devices.list()).filter((d) => missing.has(d.id));
  return saved.length === 0 ? scenario : { ...scenario, devices: [...scenario.devices, ...saved] };
}

export const planCommand: Command = {
  name: 'plan',
  usage:
    'plumb plan SCENARIO.json [--json]   (examples in examples/scenarios/; options may name saved results as "result:ID" and the SSDs saved in the app by id)',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, 'plan');
    if (values.help) {
      io.stdout.write(`Usage: ${this.usage}\n`);
      return exitCode.ok;
    }
    if (positionals.length !== 1)
      throw new UsageError('Give one scenario file: plumb plan SCENARIO.json');
    const context = await io.context();
    const scenario = await withSavedDevices(
      await loadScenarioFile(positionals[0]!),
      context.devices,
    );
    const evaluation = await evaluateWithSavedResults(scenario, () =>
      measuredProfiles(context.results),
    );
    io.stdout.write(
      values.json ? `${JSON.stringify(evaluation, null, 2)}\n` : planReport(evaluation),
    );
    return exitCode.ok;
  },
};
