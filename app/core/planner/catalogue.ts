/**
 * The built-in catalogue: interface ceilings, device profiles, Apple's upgrade prices and the
 * rules of thumb, every figure with its source. Loaded once from catalogue.json and checked.
 */
import {
  Catalogue,
  deviceFigureFields,
  type HostKind,
  type InterfaceClass,
  type InterfaceId,
} from '../../contract/planner.js';
import { PlumbError } from '../../contract/errors.js';
import catalogueData from './catalogue.json' with { type: 'json' };

/**
 * Validates a catalogue: the schema, then that every figure names a source that exists. A figure
 * without a source is a bug in the data file, so this throws.
 */
export function checkCatalogue(data: unknown): Catalogue {
  const parsed = Catalogue.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new PlumbError(
      'ECATALOGUE',
      `The planner catalogue is invalid at ${issue.path.map(String).join('.')}: ${issue.message}.`,
    );
  }
  const catalogue = parsed.data;
  const known = new Set(catalogue.sources.map((s) => s.id));
  const missing: string[] = [];
  const need = (where: string, source: string | undefined) => {
    if (!source || !known.has(source)) missing.push(`${where} (source "${source ?? ''}")`);
  };
  for (const iface of catalogue.interfaces)
    need(`interface ${iface.id}`, iface.ceilingBytesPerSecond.source);
  for (const device of catalogue.devices) {
    for (const field of deviceFigureFields) {
      if (device[field] !== null) need(`device ${device.id}.${field}`, device.sources[field]);
    }
  }
  for (const tier of catalogue.internalPriceTiers) {
    for (const step of tier.steps) need(`price tier ${tier.id}`, step.upgradeUsd.source);
  }
  for (const [name, figure] of Object.entries(catalogue.rules)) need(`rule ${name}`, figure.source);
  const deviceIds = new Set(catalogue.devices.map((d) => d.id));
  for (const mapping of catalogue.internalDevices) {
    if (!deviceIds.has(mapping.device)) missing.push(`internal device ${mapping.device}`);
  }
  if (missing.length > 0) {
    throw new PlumbError(
      'ECATALOGUE',
      `The planner catalogue has figures without a known source: ${missing.join(', ')}.`,
    );
  }
  return catalogue;
}

let builtIn: Catalogue | undefined;

/** The catalogue that ships with Plumb. */
export function builtInCatalogue(): Catalogue {
  builtIn ??= checkCatalogue(catalogueData);
  return builtIn;
}

export function interfaceClass(catalogue: Catalogue, id: InterfaceId): InterfaceClass | undefined {
  return catalogue.interfaces.find((i) => i.id === id);
}

/** The practical ceiling of an interface in bytes/s, or null when none applies. */
export function interfaceCeiling(catalogue: Catalogue, id: InterfaceId): number | null {
  return interfaceClass(catalogue, id)?.ceilingBytesPerSecond.value ?? null;
}

/** The internal profile the catalogue gives a host of this kind at this capacity. */
export function defaultInternalDevice(
  catalogue: Catalogue,
  hostKind: HostKind,
  capacityBytes: number,
): string | undefined {
  const candidates = catalogue.internalDevices
    .filter((m) => m.hostKind === hostKind && m.minCapacityBytes <= capacityBytes)
    .sort((a, b) => b.minCapacityBytes - a.minCapacityBytes);
  return candidates[0]?.device;
}
