/**
 * One purchase option evaluated against a scenario: what it costs, how long each burst takes, how
 * free space and wear develop over the horizon, and what to watch out for.
 */
import type {
  BurstResult,
  Catalogue,
  DeviceProfile,
  DiskResult,
  OptionResult,
  PlanOption,
  Scenario,
  Warning,
} from '../../contract/planner.js';
import { burstSeries, effectiveCacheBytes, type WriteRates } from './cache.js';
import { defaultInternalDevice } from './catalogue.js';
import type { DeviceBook } from './devices.js';
import { capped, resolveLink } from './link.js';
import { optionPrices } from './price.js';
import { firstShortYear, spaceOverYears } from './space.js';
import { enduranceBytes, wearLifeYears } from './wear.js';
import { yearsWords } from '../../common/plan-words.js';
import { capacityWords, fullOptionName } from '../../common/option-name.js';

/** What a disk of an option needs for the chart and the recommendation, beyond the contract. */
export interface DiskModel {
  result: DiskResult;
  device: DeviceProfile;
  rates: WriteRates;
  /** The cache the disk offers with `freeBytes` free. */
  cacheAt: (freeBytes: number) => number | null;
}

export interface OptionModel {
  result: OptionResult;
  disks: { internal: DiskModel; external: DiskModel | null };
  /** Sentences for the recommendation's list of assumptions. */
  assumptions: string[];
  /** Ids of the sources this option's figures come from. */
  sourceIds: Set<string>;
}

interface DiskPlan {
  role: 'internal' | 'external';
  device: DeviceProfile;
  usedBytes: number;
  growthBytesPerYear: number;
  dailyWriteBytes: number;
}

function modelDisk(
  plan: DiskPlan,
  scenario: Scenario,
  catalogue: Catalogue,
  warnings: Warning[],
  assumptions: string[],
  sourceIds: Set<string>,
): DiskModel {
  const { device } = plan;
  const rules = catalogue.rules;
  const resolved = resolveLink(catalogue, scenario.host, device);
  warnings.push(...resolved.warnings);
  const { link } = resolved;
  for (const source of Object.values(device.sources)) sourceIds.add(source);
  const ceiling = link.ceilingBytesPerSecond;
  const writeCeiling = link.writeCeilingBytesPerSecond;
  const linkSource = catalogue.interfaces.find((i) => i.id === link.mode)?.ceilingBytesPerSecond
    .source;
  if (linkSource && ceiling !== null) sourceIds.add(linkSource);
  // A tenth over the ceiling is rounding between sources; beyond that the claim is not a speed.
  if (
    ceiling !== null &&
    link.mode === device.interface &&
    device.writeBytesPerSecond > 1.1 * ceiling
  ) {
    warnings.push({
      code: 'above-ceiling',
      message: `${device.name} is claimed to write faster than ${link.modeName} can carry; Plumb uses the ceiling.`,
      source: linkSource ?? null,
    });
  }
  const inCache = capped(capped(device.writeBytesPerSecond, ceiling), writeCeiling);
  const after = capped(
    capped(device.afterCacheWriteBytesPerSecond ?? device.writeBytesPerSecond, ceiling),
    writeCeiling,
  );
  if (device.cacheKind !== 'none' && device.afterCacheWriteBytesPerSecond === null) {
    assumptions.push(
      `${device.name}: no after-cache write rate is known, so writes beyond ${device.cacheAtLeast ? 'the measured' : 'its'} ${capacityWords(device.cacheBytes ?? 0)} are assumed to keep the in-cache rate.`,
    );
  }
  const space = spaceOverYears({
    capacityBytes: device.capacityBytes,
    usedBytes: plan.usedBytes,
    growthBytesPerYear: plan.growthBytesPerYear,
    years: scenario.horizonYears,
    isBootDisk: plan.role === 'internal',
    rules,
  });
  for (const rule of [
    'bootMinFreeFraction',
    'bootMinFreeBytes',
    'healthyMinFreeFraction',
  ] as const) {
    sourceIds.add(rules[rule].source);
  }
  const endurance = enduranceBytes(device.tbwBytes, device.capacityBytes, rules);
  if (endurance.assumed) sourceIds.add(rules.tbwPerCapacityProxy.source);
  const result: DiskResult = {
    role: plan.role,
    device: { id: device.id, name: device.name, origin: device.origin },
    capacityBytes: device.capacityBytes,
    link,
    readBytesPerSecond:
      device.readBytesPerSecond === null ? null : capped(device.readBytesPerSecond, ceiling),
    writeBytesPerSecond: inCache,
    afterCacheWriteBytesPerSecond: after,
    cacheBytes: effectiveCacheBytes(device, space[0]!.freeBytes, rules),
    sources: [...new Set(Object.values(device.sources))],
    space,
    firstShortYear: firstShortYear(space),
    dailyWriteBytes: plan.dailyWriteBytes,
    tbwBytes: endurance.bytes,
    tbwAssumed: endurance.assumed,
    wearLifeYears: wearLifeYears(endurance.bytes, plan.dailyWriteBytes),
  };
  return {
    result,
    device,
    rates: { inCacheBytesPerSecond: inCache, afterCacheBytesPerSecond: after },
    cacheAt: (freeBytes) => effectiveCacheBytes(device, freeBytes, rules),
  };
}

/** The internal profile at the option's capacity; endurance scales with capacity. */
function internalProfile(base: DeviceProfile, capacityBytes: number): DeviceProfile {
  const scale = capacityBytes / base.capacityBytes;
  return {
    ...base,
    capacityBytes,
    tbwBytes: base.tbwBytes === null ? null : base.tbwBytes * scale,
  };
}

function spaceWarnings(disk: DiskModel, scenario: Scenario, catalogue: Catalogue): Warning[] {
  const { result } = disk;
  const rules = catalogue.rules;
  if (result.firstShortYear === null) return [];
  const year = result.firstShortYear;
  const when = year === 0 ? 'from day one' : `in year ${year}`;
  const full = result.space.find((y) => y.status === 'full');
  if (full && full.year === year) {
    return [
      {
        code: `${result.role}-full`,
        message: `The ${result.role} disk (${capacityWords(result.capacityBytes)}) runs out of space ${when}.`,
        source: null,
      },
    ];
  }
  if (result.role === 'internal') {
    return [
      {
        code: 'internal-below-minimum',
        message: `The internal disk falls below ${Math.round(rules.bootMinFreeFraction.value * 100)} % or ${capacityWords(rules.bootMinFreeBytes.value)} free ${when}; macOS needs room to upgrade and the SSD wears faster.`,
        source: rules.bootMinFreeFraction.source,
      },
    ];
  }
  const last = result.space[scenario.horizonYears]!;
  const cache = disk.cacheAt(last.freeBytes);
  const cacheNote =
    cache !== null && disk.device.cacheBytes !== null && cache < disk.device.cacheBytes
      ? ` Its write cache shrinks to about ${capacityWords(cache)}.`
      : '';
  return [
    {
      code: 'external-below-minimum',
      message: `The external disk has less than ${Math.round(rules.healthyMinFreeFraction.value * 100)} % free ${when}.${cacheNote}`,
      source: rules.healthyMinFreeFraction.source,
    },
  ];
}

export function evaluateOption(
  option: PlanOption,
  index: number,
  scenario: Scenario,
  catalogue: Catalogue,
  book: DeviceBook,
  baseCapacityBytes: number,
): OptionModel {
  const warnings: Warning[] = [];
  const assumptions: string[] = [];
  const sourceIds = new Set<string>();
  const internalId =
    option.internalDevice ??
    defaultInternalDevice(catalogue, scenario.host.kind, option.internalCapacity)!;
  const internalBase = book.byId.get(internalId)!;
  const internalDevice = internalProfile(internalBase, option.internalCapacity);
  if (internalBase.tbwBytes !== null && internalBase.capacityBytes !== option.internalCapacity) {
    assumptions.push(
      `${internalBase.name}: rated endurance scaled from its ${capacityWords(internalBase.capacityBytes)} model to ${capacityWords(option.internalCapacity)}.`,
    );
  }
  const externalDevice = option.external ? book.byId.get(option.external.device)! : undefined;
  const { data, workload } = scenario;
  const movesOut = externalDevice !== undefined;

  const internal = modelDisk(
    {
      role: 'internal',
      device: internalDevice,
      usedBytes: data.keepInternal + (movesOut ? 0 : data.movable),
      growthBytesPerYear: data.internalGrowthPerYear + (movesOut ? 0 : data.movableGrowthPerYear),
      dailyWriteBytes: workload.dailyWritesInternal + (movesOut ? 0 : workload.dailyWritesMovable),
    },
    scenario,
    catalogue,
    warnings,
    assumptions,
    sourceIds,
  );
  const external = externalDevice
    ? modelDisk(
        {
          role: 'external',
          device: externalDevice,
          usedBytes: data.movable,
          growthBytesPerYear: data.movableGrowthPerYear,
          dailyWriteBytes: workload.dailyWritesMovable,
        },
        scenario,
        catalogue,
        warnings,
        assumptions,
        sourceIds,
      )
    : null;
  const disks = external ? [internal, external] : [internal];
  for (const disk of disks) warnings.push(...spaceWarnings(disk, scenario, catalogue));

  const bursts: BurstResult[] = workload.bursts.map((burst) => {
    const disk = burst.target === 'movable' && external ? external : internal;
    const now = disk.result.space[0]!;
    const end = disk.result.space[scenario.horizonYears]!;
    const series = (freeBytes: number) =>
      burstSeries({
        bytes: burst.size,
        repeat: burst.repeat,
        gapSeconds: burst.gapSeconds,
        freeBytes,
        rates: disk.rates,
        recoverySeconds: disk.device.cacheRecoverySeconds,
        cacheAt: disk.cacheAt,
      });
    const timings = series(now.freeBytes);
    const atHorizon = series(end.freeBytes);
    const fits = burst.size * burst.repeat <= now.freeBytes;
    if (!fits) {
      warnings.push({
        code: 'burst-does-not-fit',
        message: `"${burst.name}" (${capacityWords(burst.size * burst.repeat)}) does not fit in the ${disk.result.role} disk's free space.`,
        source: null,
      });
    }
    if (burst.repeat > 1 && disk.device.cacheKind !== 'none') {
      if (disk.device.cacheRecoverySeconds === null) {
        assumptions.push(
          `${disk.device.name}: its cache recovery time is not known, so no recovery is assumed between repeats of "${burst.name}".`,
        );
      } else {
        const source = disk.device.sources.cacheRecoverySeconds;
        if (source) sourceIds.add(source);
      }
    }
    const sum = (list: { seconds: number }[]) => list.reduce((total, t) => total + t.seconds, 0);
    return {
      name: burst.name,
      bytes: burst.size,
      disk: disk.result.role,
      fits,
      seconds: timings.map((t) => t.seconds),
      totalSeconds: sum(timings),
      totalSecondsAtHorizon: sum(atHorizon),
      cacheBytesAvailable: disk.cacheAt(now.freeBytes),
      cacheBytesAtHorizon: disk.cacheAt(end.freeBytes),
      inCacheBytes: timings.reduce((total, t) => total + t.inCacheBytes, 0),
      afterCacheBytes: timings.reduce((total, t) => total + t.afterCacheBytes, 0),
    };
  });

  for (const disk of disks) {
    const life = disk.result.wearLifeYears;
    if (life !== null && life < scenario.horizonYears) {
      warnings.push({
        code: `${disk.result.role}-wear`,
        message: `At ${capacityWords(disk.result.dailyWriteBytes)} a day the ${disk.result.role} disk reaches its rated endurance in about ${yearsWords(life)}, within your ${scenario.horizonYears}-year horizon.`,
        source: disk.result.tbwAssumed
          ? catalogue.rules.tbwPerCapacityProxy.source
          : (disk.device.sources.tbwBytes ?? null),
      });
    }
  }
  const tooSlow =
    scenario.maxBurstSeconds !== undefined &&
    bursts.some((b) => Math.max(...b.seconds) > scenario.maxBurstSeconds!);
  if (tooSlow) {
    warnings.push({
      code: 'too-slow',
      message: `A burst takes longer than your limit of ${scenario.maxBurstSeconds} s.`,
      source: null,
    });
  }

  const prices = optionPrices(option, index, scenario, catalogue, book);
  for (const price of [prices.internal, prices.external]) {
    if (price?.source) sourceIds.add(price.source);
  }
  const priced = prices.missing.length === 0;
  const addedCapacityBytes =
    option.internalCapacity - baseCapacityBytes + (externalDevice?.capacityBytes ?? 0);
  const internalUsd = prices.internal?.usd ?? 0;
  const externalRange = prices.external?.rangeUsd ?? [0, 0];
  const costUsd = priced ? internalUsd + (prices.external?.usd ?? 0) : null;
  const usable = disks.every((d) => d.result.link.usable);
  // Seed 000: a USB 3.2 SSD as main storage on a Mac is a false economy (no Trim, no SMART).
  const untrimmed = warnings.some((w) => w.code === 'usb-main-storage');
  const meetsRules =
    usable &&
    !tooSlow &&
    !untrimmed &&
    disks.every(
      (d) =>
        d.result.firstShortYear === null &&
        (d.result.wearLifeYears === null || d.result.wearLifeYears >= scenario.horizonYears),
    );

  return {
    result: {
      index,
      name: option.name ?? fullOptionName({ ...option, external: externalDevice }),
      usable,
      costUsd,
      costRangeUsd:
        costUsd === null ? null : [internalUsd + externalRange[0], internalUsd + externalRange[1]],
      missingPrices: prices.missing,
      addedCapacityBytes,
      costPerAddedTbUsd:
        costUsd !== null && addedCapacityBytes > 0 ? costUsd / (addedCapacityBytes / 1e12) : null,
      disks: disks.map((d) => d.result),
      bursts,
      totalBurstSeconds: bursts.reduce((total, b) => total + b.totalSeconds, 0),
      meetsRules,
      warnings,
    },
    disks: { internal, external },
    assumptions,
    sourceIds,
  };
}
