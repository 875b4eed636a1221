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
function userFigures(device: DeviceProfile, sourceId: string): string {
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

/** Capacities within 3 % are the same disk (0.5 TB is the 512 GB model). */
export function sameCapacity(a: number, b: number): boolean {
  return Math.abs(a - b) <= 0.03 * Math.max(a, b);
}

export function priceStepFor(tier: InternalPriceTier, capacityBytes: number) {
  return tier.steps.find((step) => sameCapacity(step.capacityBytes, capacityBytes));
}

/**
 * Problems a schema cannot see: unknown devices, devices in the wrong place. Missing prices are not
 * problems of the scenario but of an option (price.ts): the others can still be compared.
 */
export function scenarioIssues(
  scenario: Scenario,
  catalogue: Catalogue,
  book: DeviceBook,
): ScenarioIssue[] {
  const issues: ScenarioIssue[] = [];
  const known = () => [...book.byId.keys()].join(', ');
  if (scenario.host.priceTier && !priceTierFor(catalogue, scenario.host)) {
    issues.push({
      path: 'host.priceTier',
      message: `unknown price tier "${scenario.host.priceTier}"; use one of ${catalogue.internalPriceTiers.map((t) => t.id).join(', ')}`,
    });
  }
  scenario.options.forEach((option, index) => {
    const at = `options.${index}`;
    const internalId =
      option.internalDevice ??
      defaultInternalDevice(catalogue, scenario.host.kind, option.internalCapacity);
    const internal = internalId ? book.byId.get(internalId) : undefined;
    if (!internal) {
      issues.push({
        path: `${at}.internalDevice`,
        message: `unknown device "${internalId ?? ''}"; use one of ${known()}`,
      });
    } else if (internal.origin === 'custom' && internal.placement !== 'internal') {
      issues.push({
        path: `${at}.internalDevice`,
        message: `"${internal.id}" is an external SSD; choose one you would fit inside (placement "internal")`,
      });
    } else if (
      internal.origin === 'custom' &&
      !sameCapacity(internal.capacityBytes, option.internalCapacity)
    ) {
      issues.push({
        path: `${at}.internalCapacity`,
        message: `${internal.name} holds ${formatSize(internal.capacityBytes)}; set internalCapacity to that`,
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
      }
    }
  });
  return issues;
}
