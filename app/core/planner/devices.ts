/**
 * Which devices and prices a scenario refers to: the catalogue's, the user's own, and profiles
 * measured by Plumb. Every problem is reported with the field to change.
 */
import {
  deviceFigureFields,
  type Catalogue,
  type DeviceFigureField,
  type DeviceProfile,
  type InternalPriceTier,
  type Scenario,
  type Source,
} from '../../contract/planner.js';
import { defaultInternalDevice } from './catalogue.js';
import { formatSeconds, formatSize, formatUsd } from '../../common/format.js';

export interface ScenarioIssue {
  /** Dotted path of the field, as in the scenario file. */
  path: string;
  message: string;
}

export interface DeviceBook {
  byId: Map<string, DeviceProfile>;
  /** Sources that are not in the catalogue: the user's figures and their measurements. */
  ownSources: Map<string, Source>;
}

const figureLabels: Record<DeviceFigureField, string> = {
  capacityBytes: 'capacity',
  priceUsd: 'price',
  readBytesPerSecond: 'read',
  writeBytesPerSecond: 'write in the cache',
  afterCacheWriteBytesPerSecond: 'write after the cache',
  cacheBytes: 'cache',
  cacheRecoverySeconds: 'cache recovery',
  tbwBytes: 'endurance',
};

function figureText(field: DeviceFigureField, value: number): string {
  switch (field) {
    case 'priceUsd':
      return formatUsd(value);
    case 'readBytesPerSecond':
    case 'writeBytesPerSecond':
    case 'afterCacheWriteBytesPerSecond':
      return `${Number((value / 1e9).toFixed(2))} GB/s`;
    case 'cacheRecoverySeconds':
      return formatSeconds(value);
    case 'tbwBytes':
      return `${Number((value / 1e12).toFixed(1))} TBW`;
    default:
      return formatSize(value);
  }
}

/** Every figure the user gave for a device, as a reader would check it: "capacity 2 TB, …". */
export function userFigures(device: DeviceProfile, sourceId: string): string {
  return deviceFigureFields
    .filter((field) => device.sources[field] === sourceId && typeof device[field] === 'number')
    .map((field) => `${figureLabels[field]} ${figureText(field, device[field] as number)}`)
    .join(', ');
}

/** All devices a scenario may name: catalogue first, then measured, then the user's own. */
export function deviceBook(
  catalogue: Catalogue,
  scenario: Pick<Scenario, 'devices'>,
  measured: readonly DeviceProfile[] = [],
): DeviceBook {
  const byId = new Map<string, DeviceProfile>();
  const ownSources = new Map<string, Source>();
  for (const device of catalogue.devices) byId.set(device.id, device);
  for (const device of measured) {
    byId.set(device.id, { ...device, origin: 'measured' });
    for (const source of Object.values(device.sources)) {
      if (source.startsWith('result:')) {
        ownSources.set(source, {
          id: source,
          title: `Measured by Plumb: ${device.name}`,
          where: `benchmark result ${source.slice('result:'.length)}, saved on this computer`,
        });
      } else if (source === 'owned') {
        ownSources.set(source, {
          id: source,
          title: 'A disk you measured is one you have',
          where: 'it costs nothing more',
        });
      }
    }
  }
  scenario.devices.forEach((device, index) => {
    // Figures without a source are the user's: one source per device lists them all.
    const own = `yours-${index + 1}`;
    const sources = { ...device.sources };
    for (const field of deviceFigureFields) {
      if (typeof device[field] === 'number' && !sources[field]) sources[field] = own;
    }
    const custom: DeviceProfile = { ...device, sources, origin: 'custom' };
    byId.set(device.id, custom);
    ownSources.set(own, {
      id: own,
      title: `Your figures for ${device.name}`,
      where: userFigures(custom, own) || 'no figures',
    });
  });
  return { byId, ownSources };
}

/** The price tier for internal upgrades: the scenario's, else the first for this host kind. */
export function priceTierFor(
  catalogue: Catalogue,
  host: Scenario['host'],
): InternalPriceTier | undefined {
  if (host.priceTier) return catalogue.internalPriceTiers.find((t) => t.id === host.priceTier);
  return catalogue.internalPriceTiers.find((t) => t.hostKinds.includes(host.kind));
}

/** Capacities within 3 % count as the same tier step (0.5 TB is the 512 GB model). */
export function priceStepFor(tier: InternalPriceTier, capacityBytes: number) {
  return tier.steps.find(
    (step) => Math.abs(step.capacityBytes - capacityBytes) <= 0.03 * step.capacityBytes,
  );
}

const hostNames: Record<Scenario['host']['kind'], string> = {
  'apple-silicon': 'an Apple silicon Mac',
  'intel-mac': 'an Intel Mac',
  'windows-pc': 'a Windows PC',
};

function gigabytes(bytes: number): string {
  return bytes >= 1e12 ? `${bytes / 1e12} TB` : `${Math.round(bytes / 1e9)} GB`;
}

/** Problems a schema cannot see: unknown devices, missing prices, devices in the wrong place. */
export function scenarioIssues(
  scenario: Scenario,
  catalogue: Catalogue,
  book: DeviceBook,
): ScenarioIssue[] {
  const issues: ScenarioIssue[] = [];
  const known = () => [...book.byId.keys()].join(', ');
  let tier: InternalPriceTier | undefined;
  if (scenario.host.priceTier) {
    tier = priceTierFor(catalogue, scenario.host);
    if (!tier) {
      issues.push({
        path: 'host.priceTier',
        message: `unknown price tier "${scenario.host.priceTier}"; use one of ${catalogue.internalPriceTiers.map((t) => t.id).join(', ')}`,
      });
    }
  } else {
    tier = priceTierFor(catalogue, scenario.host);
  }
  scenario.options.forEach((option, index) => {
    const at = `options.${index}`;
    if (option.internalUpgradeUsd === undefined) {
      if (!tier) {
        if (scenario.host.priceTier === undefined) {
          issues.push({
            path: `${at}.internalUpgradeUsd`,
            message: `the catalogue has no internal upgrade prices for ${hostNames[scenario.host.kind]}; give internalUpgradeUsd (0 to keep the disk it has)`,
          });
        }
      } else if (!priceStepFor(tier, option.internalCapacity)) {
        issues.push({
          path: `${at}.internalCapacity`,
          message: `${tier.name} has no price for ${gigabytes(option.internalCapacity)} (it has ${tier.steps.map((s) => gigabytes(s.capacityBytes)).join(', ')}); pick one of those or give internalUpgradeUsd`,
        });
      }
    }
    const internalId =
      option.internalDevice ??
      defaultInternalDevice(catalogue, scenario.host.kind, option.internalCapacity);
    if (!internalId || !book.byId.has(internalId)) {
      issues.push({
        path: `${at}.internalDevice`,
        message: `unknown device "${internalId ?? ''}"; use one of ${known()}`,
      });
    }
    if (option.external) {
      const device = book.byId.get(option.external.device);
      if (!device) {
        issues.push({
          path: `${at}.external.device`,
          message: `unknown device "${option.external.device}"; use one of ${known()}`,
        });
      } else if (device.placement === 'internal') {
        issues.push({
          path: `${at}.external.device`,
          message: `"${device.id}" is an internal SSD; choose an external one`,
        });
      } else if (option.external.priceUsd === undefined && device.priceUsd === null) {
        issues.push({
          path: `${at}.external.priceUsd`,
          message: `the sources give no price for ${device.name}; give priceUsd`,
        });
      }
    }
  });
  return issues;
}
