/**
 * The names Plumb gives a planner option from its disks: a short one for the built-in options
 * ("512 GB + TB5 SSD") and a full one for an option left unnamed ("512 GB internal + Samsung T7
 * Shield 2 TB (USB 3.2 Gen 2)"). A name Plumb gave follows the disks when they change; a name the
 * user typed is kept.
 */
/** The parts of an option its names are made from. */
export interface NamedOption {
  internalCapacity: number;
  /** The external SSD, if any: its catalogue or measured name and interface id. */
  external?: { name: string; interface: string } | undefined;
}

const shortInterface: Record<string, string> = {
  sata: 'SATA',
  usb32g1: 'USB 3.2 Gen 1',
  usb32g2: 'USB 3.2',
  usb32g2x2: 'USB 3.2 2x2',
  tb3: 'TB3',
  usb4: 'USB4',
  tb5: 'TB5',
};

/** "512 GB", "1 TB", "1.5 TB": a capacity as it is sold. */
export function capacityWords(bytes: number): string {
  return bytes >= 1e12
    ? `${(bytes / 1e12).toFixed(2).replace(/\.?0+$/, '')} TB`
    : `${Math.round(bytes / 1e9)} GB`;
}

/** The longest name an option may have (the scenario's schema); a longer one is cut. */
export const optionNameMaxLength = 80;

const clipped = (name: string) =>
  name.length <= optionNameMaxLength ? name : `${name.slice(0, optionNameMaxLength - 1)}…`;

/** "512 GB + TB5 SSD", "2 TB internal". */
export function shortOptionName({ internalCapacity, external }: NamedOption): string {
  const internal = capacityWords(internalCapacity);
  if (!external) return `${internal} internal`;
  const link = shortInterface[external.interface];
  return clipped(link ? `${internal} + ${link} SSD` : `${internal} + ${external.name}`);
}

/** "512 GB internal + Samsung T7 Shield 2 TB (USB 3.2 Gen 2)". */
export function fullOptionName({ internalCapacity, external }: NamedOption): string {
  const internal = `${capacityWords(internalCapacity)} internal`;
  return clipped(external ? `${internal} + ${external.name}` : internal);
}

/**
 * The option's name after its disks change from `before` to `after`: a name Plumb gave (either
 * form) becomes the same form for the new disks; any other name is the user's and stays.
 */
export function renamedForDisks(
  name: string | undefined,
  before: NamedOption,
  after: NamedOption,
): string | undefined {
  if (name === undefined) return undefined;
  if (name === shortOptionName(before)) return shortOptionName(after);
  if (name === fullOptionName(before)) return fullOptionName(after);
  return name;
}
