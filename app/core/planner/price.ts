/**
 * What an option costs, from figures someone gave: the user's price, the price of their own SSD,
 * the catalogue's upgrade step or the external SSD's listing. A price nobody gave is missing,
 * never $0: the option says which field to fill and is not recommended until it is.
 */
import type {
  Catalogue,
  DeviceProfile,
  MissingPrice,
  PlanOption,
  Scenario,
} from '../../contract/planner.js';
import { formatSize } from '../../common/format.js';
import { priceStepFor, priceTierFor, sameCapacity, type DeviceBook } from './devices.js';

/** A known price and the id of its source (null for a price typed into the option itself). */
export interface KnownPrice {
  usd: number;
  /** [low, high] when the sources give a range. */
  rangeUsd: [number, number];
  source: string | null;
}

export interface OptionPrices {
  internal: KnownPrice | null;
  external: KnownPrice | null;
  missing: MissingPrice[];
}

const hostNames: Record<Scenario['host']['kind'], string> = {
  'apple-silicon': 'an Apple silicon Mac',
  'intel-mac': 'an Intel Mac',
  'windows-pc': 'a Windows PC',
};

function known(usd: number, source: string | null): KnownPrice {
  return { usd, rangeUsd: [usd, usd], source };
}

/** The price of the device's own figure, when the device is one the user has or would buy. */
function devicePrice(device: DeviceProfile | undefined, capacityBytes: number) {
  if (!device || device.origin === 'catalogue' || device.priceUsd === null) return null;
  // A measured disk costs nothing only at the capacity it has; another size is another disk.
  if (!sameCapacity(device.capacityBytes, capacityBytes)) return null;
  return known(device.priceUsd, device.sources.priceUsd ?? null);
}

function internalPrice(
  option: PlanOption,
  at: string,
  scenario: Scenario,
  catalogue: Catalogue,
  book: DeviceBook,
): KnownPrice | MissingPrice {
  if (option.internalUpgradeUsd !== undefined) return known(option.internalUpgradeUsd, null);
  const device = option.internalDevice ? book.byId.get(option.internalDevice) : undefined;
  const own = devicePrice(device, option.internalCapacity);
  if (own) return own;
  const tier = priceTierFor(catalogue, scenario.host);
  const step = tier ? priceStepFor(tier, option.internalCapacity) : undefined;
  if (step) return known(step.upgradeUsd.value, step.upgradeUsd.source);
  const capacity = formatSize(option.internalCapacity);
  const path = `${at}.internalUpgradeUsd`;
  if (device?.origin === 'custom') {
    return {
      path,
      disk: 'internal',
      message: `your SSD "${device.name}" has no price${device.priceUsd === null ? '' : ` for ${capacity}`}; give its price in your devices, or give internalUpgradeUsd`,
    };
  }
  if (tier) {
    return {
      path,
      disk: 'internal',
      message: `${tier.name} has no price for ${capacity} (it has ${tier.steps.map((s) => formatSize(s.capacityBytes)).join(', ')}); pick one of those capacities or give internalUpgradeUsd`,
    };
  }
  return {
    path,
    disk: 'internal',
    message: `the price of a ${capacity} internal SSD for ${hostNames[scenario.host.kind]} is not known; give internalUpgradeUsd, what the upgrade or the SSD you would fit costs (0 only to keep the disk it has), or name your own SSD with its price in internalDevice`,
  };
}

function externalPrice(
  option: PlanOption,
  at: string,
  device: DeviceProfile | undefined,
): KnownPrice | MissingPrice | null {
  if (!option.external || !device) return null;
  if (option.external.priceUsd !== undefined) return known(option.external.priceUsd, null);
  if (device.priceUsd === null) {
    return {
      path: `${at}.external.priceUsd`,
      disk: 'external',
      message: `the sources give no price for ${device.name}; give priceUsd`,
    };
  }
  return {
    ...known(device.priceUsd, device.sources.priceUsd ?? null),
    rangeUsd: device.priceRangeUsd ?? [device.priceUsd, device.priceUsd],
  };
}

const isMissing = (price: KnownPrice | MissingPrice): price is MissingPrice => 'path' in price;

/** The option's prices, or the fields to fill where one is not known. */
export function optionPrices(
  option: PlanOption,
  index: number,
  scenario: Scenario,
  catalogue: Catalogue,
  book: DeviceBook,
): OptionPrices {
  const at = `options.${index}`;
  const internal = internalPrice(option, at, scenario, catalogue, book);
  const externalDevice = option.external ? book.byId.get(option.external.device) : undefined;
  const external = externalPrice(option, at, externalDevice);
  const missing = [internal, external].filter((p): p is MissingPrice => p !== null && isMissing(p));
  return {
    internal: isMissing(internal) ? null : internal,
    external: external === null || isMissing(external) ? null : external,
    missing,
  };
}
