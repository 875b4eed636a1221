/** The computer a scenario is planned for: its kinds, ports, price tier, and changing it. */
import type { Catalogue, HostKind, PortKind, Scenario } from '../../../../app/contract/planner.js';

export const hostKinds: { value: HostKind; label: string }[] = [
  { value: 'apple-silicon', label: 'Apple silicon Mac' },
  { value: 'intel-mac', label: 'Intel Mac' },
  { value: 'windows-pc', label: 'Windows PC' },
];

export const ports: { value: PortKind; label: string; intel: boolean }[] = [
  { value: 'tb5', label: 'Thunderbolt 5', intel: false },
  { value: 'tb4-usb4', label: 'Thunderbolt 4 / USB4', intel: false },
  { value: 'tb3', label: 'Thunderbolt 3', intel: true },
  { value: 'usb32g2x2', label: 'USB 3.2 Gen 2x2', intel: true },
  { value: 'usb32g2', label: 'USB 3.2 Gen 2', intel: true },
];

/** The internal upgrade prices for a host: its chosen tier, or the one for its kind. */
export function tierFor(catalogue: Catalogue, host: Scenario['host']) {
  return catalogue.internalPriceTiers.find((t) =>
    host.priceTier ? t.id === host.priceTier : t.hostKinds.includes(host.kind),
  );
}

/** The scenario with the host changed by `patch`, its port and options kept valid for it. */
export function withHost(
  scenario: Scenario,
  catalogue: Catalogue,
  patch: Partial<Scenario['host']>,
): Scenario {
  const host = { ...scenario.host, ...patch };
  // Intel Macs stop at Thunderbolt 3: keep the port valid when the kind changes.
  if (host.kind === 'intel-mac' && (host.port === 'tb5' || host.port === 'tb4-usb4')) {
    host.port = 'tb3';
  }
  if (host.kind !== scenario.host.kind) host.priceTier = undefined;
  const nextTier = tierFor(catalogue, host);
  // Without upgrade prices (Intel Mac, PC) an option keeps what it has, and a price nobody gave
  // stays missing for the user to fill (never $0); with them, an option takes the nearest
  // capacity the price list has.
  const options = scenario.options.map((option) => {
    if (!nextTier) return option;
    const nearest = [...nextTier.steps].sort(
      (a, b) =>
        Math.abs(a.capacityBytes - option.internalCapacity) -
        Math.abs(b.capacityBytes - option.internalCapacity),
    )[0]!;
    return { ...option, internalCapacity: nearest.capacityBytes, internalUpgradeUsd: undefined };
  });
  return { ...scenario, host, options };
}
