/**
 * The bus of a Mac volume, from what macOS prints: `diskutil info -plist MOUNT` (BusProtocol,
 * Internal, SolidState, the whole disk), `system_profiler SPUSBDataType SPThunderboltDataType
 * -json` (the USB link speed of the disk's device, Thunderbolt link speeds) and the chip name of
 * `system_profiler SPHardwareDataType -json`. The result is a bus name the interface ceiling and
 * the planner read, as they read Linux's and Windows' ("thunderbolt 5", "usb 3.2 gen 2", …).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

type PlistValue = string | number | boolean | PlistValue[] | { [key: string]: PlistValue };

/** An XML property list (the format of `diskutil -plist`) as plain values; <data> and <date> as text. */
export function parsePlist(xml: string): PlistValue {
  const tokens = xml.matchAll(
    /<(\/?)(dict|array|key|string|integer|real|true|false|data|date)(\s*\/)?>([^<]*)/g,
  );
  const next = (): RegExpMatchArray => {
    const step = tokens.next();
    if (step.done) throw new Error('The property list ends early.');
    return step.value;
  };
  const unescape = (text: string) =>
    text
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  const value = (token: RegExpMatchArray): PlistValue => {
    const [, closing, tag, selfClosing, text = ''] = token;
    if (closing) throw new Error(`Unexpected </${tag}> in the property list.`);
    switch (tag) {
      case 'true':
        return true;
      case 'false':
        return false;
      case 'integer':
      case 'real':
        return Number(text.trim());
      case 'string':
      case 'data':
      case 'date':
        return selfClosing ? '' : unescape(text);
      case 'array': {
        const items: PlistValue[] = [];
        if (selfClosing) return items;
        for (let t = next(); !(t[1] && t[2] === 'array'); t = next()) {
          if (t[1]) continue; // the closing tag of a scalar
          items.push(value(t));
        }
        return items;
      }
      case 'dict': {
        const dict: Record<string, PlistValue> = {};
        if (selfClosing) return dict;
        let key: string | null = null;
        for (let t = next(); !(t[1] && t[2] === 'dict'); t = next()) {
          if (t[1]) continue;
          if (t[2] === 'key') key = unescape(t[4] ?? '');
          else if (key !== null) {
            dict[key] = value(t);
            key = null;
          }
        }
        return dict;
      }
      default:
        throw new Error(`Unexpected <${tag}> in the property list.`);
    }
  };
  for (let step = tokens.next(); !step.done; step = tokens.next()) {
    if (!step.value[1]) return value(step.value);
  }
  throw new Error('The property list holds no value.');
}

/** What `diskutil info -plist` says of a volume's disk. */
export interface DiskutilFacts {
  /** "Apple Fabric", "PCI-Express", "USB", "SATA", "Thunderbolt", … */
  protocol: string | null;
  internal: boolean | null;
  solidState: boolean | null;
  /** The whole disk ("disk4"), to find it in system_profiler's lists. */
  wholeDisk: string | null;
  /** The physical stores of an APFS volume ("disk4s2"), whose whole disks are the ones to find. */
  physicalStores: string[];
  mediaName: string | null;
  /** FilesystemType: "apfs", "hfs", "exfat", "msdos", … */
  fileSystem: string | null;
  /** The APFS container ("disk5") a volume shares its space with its sibling volumes in. */
  container: string | null;
  /** A card or disc that leaves its drive (an SD card in the Mac's own reader). */
  removableMedia: boolean | null;
}

export function parseDiskutilInfo(xml: string): DiskutilFacts {
  const info = parsePlist(xml);
  if (typeof info !== 'object' || Array.isArray(info))
    throw new Error('diskutil: not a dictionary');
  const text = (key: string) => (typeof info[key] === 'string' ? info[key] : null);
  const flag = (key: string) => (typeof info[key] === 'boolean' ? info[key] : null);
  const stores = Array.isArray(info.APFSPhysicalStores) ? info.APFSPhysicalStores : [];
  return {
    protocol: text('BusProtocol'),
    internal: flag('Internal'),
    solidState: flag('SolidState'),
    wholeDisk: text('ParentWholeDisk'),
    physicalStores: stores
      .map((s) => (typeof s === 'object' && !Array.isArray(s) ? s.APFSPhysicalStore : null))
      .filter((s): s is string => typeof s === 'string'),
    mediaName: text('MediaName') ?? text('IORegistryEntryName'),
    fileSystem: text('FilesystemType'),
    container: text('APFSContainerReference'),
    removableMedia: flag('RemovableMedia'),
  };
}

type ProfilerItem = { [key: string]: unknown };

function items(value: unknown): ProfilerItem[] {
  return Array.isArray(value) ? (value as ProfilerItem[]) : [];
}

/** Every item of a system_profiler tree, depth first (devices nest under hubs and buses). */
function* walkItems(list: ProfilerItem[]): Generator<ProfilerItem> {
  for (const item of list) {
    yield item;
    yield* walkItems(items(item._items));
  }
}

/** The whole-disk name of a BSD name: disk4s2 → disk4. */
const wholeDiskOf = (bsd: string) => /^(disk\d+)/.exec(bsd)?.[1] ?? bsd;

/** The USB device holding `disk` (its Media list names it), with its speed and names. */
function usbDeviceOfDisk(
  profiler: Record<string, unknown>,
  disks: readonly string[],
): { speed: string | null; names: string } | null {
  const wanted = new Set(disks.map(wholeDiskOf));
  for (const item of walkItems([
    ...items(profiler.SPUSBDataType),
    ...items(profiler.SPUSBHostDataType),
  ])) {
    const media = items(item.Media);
    if (!media.some((m) => typeof m.bsd_name === 'string' && wanted.has(wholeDiskOf(m.bsd_name))))
      continue;
    const speed = typeof item.device_speed === 'string' ? item.device_speed : null;
    const names = [item._name, item.manufacturer, ...media.map((m) => m._name)]
      .filter((n) => typeof n === 'string')
      .join(' ');
    return { speed, names };
  }
  return null;
}

/** The link speeds (Gb/s) of the Thunderbolt devices attached, with their names. */
function thunderboltLinks(
  profiler: Record<string, unknown>,
): { name: string; gigabitsPerSecond: number }[] {
  const links: { name: string; gigabitsPerSecond: number }[] = [];
  for (const item of walkItems(items(profiler.SPThunderboltDataType))) {
    // Host controllers ("thunderbolt_bus") describe the Mac's ports; devices carry a route string.
    if (typeof item.device_name_key !== 'string' || item.route_string_key === '0') continue;
    for (const [key, value] of Object.entries(item)) {
      if (!key.startsWith('receptacle_') || typeof value !== 'object' || value === null) continue;
      const speed = (value as Record<string, unknown>).current_speed_key;
      const gbps = typeof speed === 'string' ? /([\d.]+)\s*Gb\/s/.exec(speed)?.[1] : undefined;
      if (gbps) links.push({ name: item.device_name_key, gigabitsPerSecond: Number(gbps) });
    }
  }
  return links;
}

/** "Apple M1", "Apple M2 Pro", … from SPHardwareDataType; null on Intel Macs. */
function chipName(profiler: Record<string, unknown>): string | null {
  const chip = items(profiler.SPHardwareDataType)[0]?.chip_type;
  return typeof chip === 'string' ? chip : null;
}

export interface MacBus {
  /** The bus name volume facts carry (lower case): see the module comment. */
  bus: string | null;
  internal: boolean | null;
  medium: 'ssd' | 'hdd' | null;
}

const usbSpeeds: Record<string, string> = {
  // Macs do not run USB 3.2 Gen 2x2: a 20 Gb/s drive links at Gen 2 (10 Gb/s) there.
  super_speed_plus: 'usb 3.2 gen 2',
  super_speed: 'usb 3.2 gen 1',
  high_speed: 'usb 2',
  full_speed: 'usb 1',
};

/** The bus of the disk under a Mac volume, from the three tools' output. */
export function macBus(disk: DiskutilFacts, profiler: Record<string, unknown>): MacBus {
  const medium = disk.solidState === null ? null : disk.solidState ? 'ssd' : 'hdd';
  const protocol = disk.protocol?.toLowerCase() ?? null;
  const disks = [disk.wholeDisk, ...disk.physicalStores].filter((d): d is string => d !== null);
  let bus: string | null = protocol;
  // A card in the Mac's own reader: diskutil calls the reader internal, but the card is not the
  // internal SSD a plan would replace.
  const internal = disk.removableMedia === true ? false : disk.internal;
  if (protocol === 'secure digital') {
    bus = 'sd'; // as Windows (BusTypeSd) and Linux name it
  } else if (protocol === 'apple fabric') {
    const chip = chipName(profiler);
    bus = chip ? `apple fabric (${chip.toLowerCase()})` : 'apple fabric';
  } else if (protocol === 'usb') {
    const device = usbDeviceOfDisk(profiler, disks);
    const link = device?.speed ? (usbSpeeds[device.speed] ?? 'usb') : 'usb';
    // A SATA drive in a USB case: the bridge names itself (ASMedia, JMicron "SATA bridge", …).
    bus = device && /\bsata\b/i.test(device.names) ? `sata over ${link}` : link;
  } else if (
    protocol === 'thunderbolt' ||
    (protocol === 'pci-express' && disk.internal === false)
  ) {
    // An external PCIe drive is tunnelled over Thunderbolt or USB4: its link is a Thunderbolt one.
    const links = thunderboltLinks(profiler);
    const named = disk.mediaName
      ? links.filter((l) =>
          l.name
            .toLowerCase()
            .split(/\s+/)
            .some((w) => w.length > 2 && disk.mediaName!.toLowerCase().includes(w)),
        )
      : [];
    const speeds = new Set((named.length > 0 ? named : links).map((l) => l.gigabitsPerSecond));
    const gbps = speeds.size === 1 ? [...speeds][0]! : null;
    bus =
      gbps === null
        ? 'thunderbolt'
        : gbps >= 80
          ? 'thunderbolt 5'
          : gbps >= 40
            ? 'usb4 or thunderbolt 3/4 (40 gb/s)'
            : 'thunderbolt 3';
  }
  return { bus, internal, medium };
}

/** Of macOS's file systems, only APFS makes clones (clonefile(2)); HFS+, exFAT and FAT do not. */
const cloningFileSystems = new Set(['apfs']);

export interface MacVolumeFacts extends MacBus {
  fsType: string | null;
  supportsClones: boolean | null;
  /** The APFS container whose free space the volume shares with its siblings; null off APFS. */
  container: string | null;
}

/** The bus, file system and clone support of a Mac volume, from diskutil and system_profiler. */
export function macVolumeFacts(
  disk: DiskutilFacts,
  profiler: Record<string, unknown>,
): MacVolumeFacts {
  const fsType = disk.fileSystem?.toLowerCase() ?? null;
  return {
    ...macBus(disk, profiler),
    fsType,
    supportsClones: fsType === null ? null : cloningFileSystems.has(fsType),
    container: fsType === 'apfs' ? disk.container : null,
  };
}

const run = promisify(execFile);

/** The facts of the volume mounted at `mountPoint`, asked of diskutil and system_profiler. */
export async function macVolumeBus(mountPoint: string): Promise<MacVolumeFacts | null> {
  try {
    const { stdout: plist } = await run('diskutil', ['info', '-plist', mountPoint], {
      timeout: 10_000,
    });
    const disk = parseDiskutilInfo(plist);
    const types = ['SPHardwareDataType'];
    if (disk.protocol === 'USB') types.push('SPUSBDataType', 'SPUSBHostDataType');
    if (disk.protocol === 'PCI-Express' || disk.protocol === 'Thunderbolt')
      types.push('SPThunderboltDataType');
    const { stdout: json } = await run('system_profiler', ['-json', ...types], {
      timeout: 20_000,
      maxBuffer: 32 * 1024 * 1024,
    });
    return macVolumeFacts(disk, JSON.parse(json) as Record<string, unknown>);
  } catch {
    return null; // a disk image, a network volume, or a tool missing: the bus stays unknown
  }
}
