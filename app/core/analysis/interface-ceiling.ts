/** The practical maximum one SSD reaches over an interface (reference/storage-facts.md). */
export interface InterfaceCeiling {
  id: string;
  label: string;
  bytesPerSecond: number;
  source: string;
}

export const interfaceCeilings: readonly InterfaceCeiling[] = [
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
];

/** The ceiling with this id (case-insensitive), or undefined. */
export function interfaceCeilingById(id: string): InterfaceCeiling | undefined {
  const wanted = id.trim().toLowerCase();
  return interfaceCeilings.find((ceiling) => ceiling.id === wanted);
}

/**
 * The interface ceiling implied by the bus the OS reports: the fastest interface of that kind,
 * since the OS rarely says which generation. SATA → SATA III; USB mass storage → Gen 2x2 (USB4
 * drives tunnel PCIe and show up as NVMe); Thunderbolt → Thunderbolt 5. Other buses (NVMe on
 * PCIe, virtual disks) have no ceiling a single drive is known to reach: undefined.
 */
export function interfaceCeilingForBus(bus: string | null): InterfaceCeiling | undefined {
  switch (bus?.toLowerCase()) {
    case 'sata':
    case 'ata':
      return interfaceCeilingById('sata');
    case 'usb':
      return interfaceCeilingById('usb3-gen2x2');
    case 'thunderbolt':
      return interfaceCeilingById('tb5');
    default:
      return undefined;
  }
}
