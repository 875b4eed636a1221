/** The practical maximum one SSD reaches over an interface (reference/storage-facts.md). */
export interface InterfaceCeiling {
  id: string;
  label: string;
  bytesPerSecond: number;
  source: string;
}

export const interfaceCeilings: readonly InterfaceCeiling[] = [
  {
    id: 'usb2',
    label: 'USB 2.0',
    bytesPerSecond: 0.045e9,
    source: '480 Mb/s less protocol overhead',
  },
  {
    id: 'usb3-gen1',
    label: 'USB 3.2 Gen 1',
    bytesPerSecond: 0.5e9,
    source: 'eclecticlight.co 2022-04-18',
  },
  {
    id: 'sata',
    label: 'SATA III',
    bytesPerSecond: 0.55e9,
    source: 'Kingston/DigiKey SATA tutorial',
  },
  {
    id: 'usb3-gen2',
    label: 'USB 3.2 Gen 2',
    bytesPerSecond: 1.05e9,
    source: 'seed 000; AnandTech T7',
  },
  { id: 'usb3-gen2x2', label: 'USB 3.2 Gen 2x2', bytesPerSecond: 2e9, source: 'AnandTech T9' },
  { id: 'tb3', label: 'Thunderbolt 3', bytesPerSecond: 2.8e9, source: 'seed 001' },
  { id: 'usb4', label: 'USB4 40 Gb/s', bytesPerSecond: 3.8e9, source: 'seed 002, seed 003' },
  { id: 'tb5', label: 'Thunderbolt 5', bytesPerSecond: 6e9, source: 'seed 000 postscript' },
  {
    id: 'apple-internal-base',
    label: 'the internal SSD of a base Apple M-series chip',
    bytesPerSecond: 3.5e9,
    source: 'seed 004 (M1 mini: 3.3 GB/s write, 2.9 GB/s uncached read); storage-facts.md',
  },
  {
    id: 'apple-internal',
    label: 'an Apple silicon internal SSD',
    bytesPerSecond: 7.7e9,
    source: 'seed 001 (6.5-7.5 GB/s, M1 Pro/Max), seed 002 (7.69 GB/s write)',
  },
];

const fastest = interfaceCeilings.reduce((top, c) =>
  c.bytesPerSecond > top.bytesPerSecond ? c : top,
);

/**
 * What rates are checked against when no interface ceiling is known (the bus was not reported,
 * or Plumb knows none for it, like NVMe on PCIe): the fastest SSD in the table above. A file moved
 * faster than that was not moved by a drive but served from memory or a cache.
 */
export const anySsdCeiling: InterfaceCeiling = {
  id: 'any-ssd',
  label: 'any SSD Plumb knows of',
  bytesPerSecond: fastest.bytesPerSecond,
  source: `the fastest in Plumb's table of interfaces: ${fastest.label} (${fastest.source})`,
};

/** The ceiling a run's rates are checked against: the known one, else any SSD's. */
export function ceilingToCheck(known: InterfaceCeiling | undefined): InterfaceCeiling {
  return known ?? anySsdCeiling;
}

/** The ceiling as a result records it (environment.ceiling). */
export function recordedCeiling(ceiling: InterfaceCeiling): {
  id: string;
  label: string;
  bytesPerSecond: number;
} {
  return { id: ceiling.id, label: ceiling.label, bytesPerSecond: ceiling.bytesPerSecond };
}

/** The ceiling with this id (case-insensitive), or undefined. */
export function interfaceCeilingById(id: string): InterfaceCeiling | undefined {
  const wanted = id.trim().toLowerCase();
  return interfaceCeilings.find((ceiling) => ceiling.id === wanted);
}

/** The ceiling of the link a bus name gives, alone: undefined when the name says none. */
function linkCeiling(name: string): InterfaceCeiling | undefined {
  // Apple silicon: base chips ("apple fabric (apple m1)") reach about half of Pro/Max/Ultra.
  if (name.startsWith('apple fabric')) {
    const chip = /\((apple m\d+[^)]*)\)/.exec(name)?.[1];
    const base = chip !== undefined && !/pro|max|ultra/.test(chip);
    return interfaceCeilingById(base ? 'apple-internal-base' : 'apple-internal');
  }
  if (/thunderbolt\s*5|\btb5\b/.test(name)) return interfaceCeilingById('tb5');
  if (/usb\s*4|40 gb\/s/.test(name)) return interfaceCeilingById('usb4');
  if (/thunderbolt\s*[34]|\btb[34]\b/.test(name)) return interfaceCeilingById('tb3');
  if (/thunderbolt/.test(name)) return interfaceCeilingById('tb5');
  if (/usb\s*3(\.\d)?\s*gen\s*2x2/.test(name)) return interfaceCeilingById('usb3-gen2x2');
  if (/usb\s*3(\.\d)?\s*gen\s*2/.test(name)) return interfaceCeilingById('usb3-gen2');
  if (/usb\s*3(\.\d)?\s*gen\s*1|usb\s*3\.0/.test(name)) return interfaceCeilingById('usb3-gen1');
  if (/usb\s*[12]\b/.test(name)) return interfaceCeilingById('usb2');
  if (/\busb\b/.test(name)) return interfaceCeilingById('usb3-gen2x2');
  return undefined;
}

/**
 * The interface ceiling implied by the bus the OS reports: the slowest of what the name says.
 * Linux and Windows name the kind only ("sata", "usb", "thunderbolt": the fastest of that kind is
 * assumed, USB4 drives tunnel PCIe and show up as NVMe); macOS names the link too ("thunderbolt 5",
 * "usb 3.2 gen 2", "sata over usb 3.2 gen 1", "apple fabric (apple m1)",
 * app/core/os/darwin/mac-bus.ts).
 * Other buses (NVMe on PCIe, virtual disks) have no ceiling a single drive is known to reach.
 */
export function interfaceCeilingForBus(bus: string | null): InterfaceCeiling | undefined {
  const name = bus?.toLowerCase().trim() ?? '';
  const limits = [
    /^(sata|ata)\b|\bsata over\b/.test(name) ? interfaceCeilingById('sata') : undefined,
    linkCeiling(name),
  ].filter((ceiling) => ceiling !== undefined);
  return limits.sort((a, b) => a.bytesPerSecond - b.bytesPerSecond)[0];
}
