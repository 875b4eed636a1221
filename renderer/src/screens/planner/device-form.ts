/**
 * The form for a device of the user's own: text as people write it ("2 TB", "5.5 GB/s", "2 min",
 * "$179") in, a device profile out, or one message per field that is wrong. Pure: no React.
 */
import { slugOf } from '../../../../app/common/format.js';
import { bytesPerUnit } from '../../../../app/common/units.js';
import type { CacheKind, DeviceProfile, InterfaceId } from '../../../../app/contract/planner.js';

/**
 * Interfaces an SSD of the user's own can use, in the order a buyer meets them: external ones,
 * then an SSD fitted inside the computer (which the planner offers as an option's internal disk).
 */
export const ownInterfaces: { value: InterfaceId; label: string }[] = [
  { value: 'tb5', label: 'Thunderbolt 5' },
  { value: 'usb4', label: 'USB4 / Thunderbolt 4 (40 Gb/s)' },
  { value: 'tb3', label: 'Thunderbolt 3' },
  { value: 'usb32g2x2', label: 'USB 3.2 Gen 2x2 (20 Gb/s)' },
  { value: 'usb32g2', label: 'USB 3.2 Gen 2 (10 Gb/s)' },
  { value: 'usb32g1', label: 'USB 3.2 Gen 1 (5 Gb/s)' },
  { value: 'nvme-internal', label: 'Inside the computer: NVMe (M.2)' },
  { value: 'sata', label: 'Inside the computer: SATA' },
];

/** Where an SSD of this interface goes: inside the computer or plugged in. */
function placementOf(id: InterfaceId): 'internal' | 'external' {
  return id === 'nvme-internal' || id === 'sata' ? 'internal' : 'external';
}

export const cacheKinds: { value: CacheKind; label: string }[] = [
  { value: 'dynamic-tlc', label: 'Shrinks as the disk fills (TLC)' },
  { value: 'dynamic-qlc', label: 'Shrinks as the disk fills (QLC)' },
  { value: 'fixed', label: 'Fixed size' },
  { value: 'none', label: 'No slowdown: one steady rate' },
];

/** What the form holds: every figure as the text the user typed. */
export interface DeviceDraft {
  id: string | null;
  name: string;
  capacity: string;
  price: string;
  interface: InterfaceId;
  read: string;
  write: string;
  cacheKind: CacheKind;
  cache: string;
  afterCacheWrite: string;
  recovery: string;
  tbw: string;
}

export type DraftField = Exclude<keyof DeviceDraft, 'id' | 'interface' | 'cacheKind'>;
export type DraftErrors = Partial<Record<DraftField, string>>;

export const emptyDraft: DeviceDraft = {
  id: null,
  name: '',
  capacity: '',
  price: '',
  interface: 'tb5',
  read: '',
  write: '',
  cacheKind: 'dynamic-tlc',
  cache: '',
  afterCacheWrite: '',
  recovery: '',
  tbw: '',
};

const decimal = String.raw`(\d+(?:[.,]\d+)?|\.\d+)`;
const sizePattern = new RegExp(`^${decimal}\\s*(b|kb|mb|gb|tb|pb|kib|mib|gib|tib)$`, 'i');
const ratePattern = new RegExp(
  `^${decimal}\\s*(b|kb|mb|gb|kib|mib|gib)\\s*(?:/\\s*s|ps|/\\s*sec|/\\s*second)$`,
  'i',
);
const durationUnits: Record<string, number> = { s: 1, min: 60, h: 3600 };
const durationPattern = new RegExp(
  `^${decimal}\\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?)$`,
  'i',
);

/** "1,5" is 1.5 to a German reader; thousands separators are not allowed in these fields. */
function amount(text: string): number {
  return Number(text.replace(',', '.'));
}

type Parsed = { value: number } | { error: string };

/** "2 TB", "500GB", "1.5 TiB" → bytes. */
export function parseSize(text: string): Parsed {
  const trimmed = text.trim();
  const match = sizePattern.exec(trimmed);
  if (!match) {
    return /^[\d.,]+$/.test(trimmed)
      ? { error: 'add a unit, like "2 TB" or "500 GB"' }
      : { error: 'write a size like "2 TB" or "500 GB"' };
  }
  return { value: Math.round(amount(match[1]!) * bytesPerUnit[match[2]!.toLowerCase()]!) };
}

/** "5.5 GB/s", "3500 MB/s", "1 GBps" → bytes per second. */
export function parseRate(text: string): Parsed {
  const trimmed = text.trim();
  // "40 Gb/s", "10 Gbps", "5 Gbit/s": link speeds in bits, eight times what a disk writes in bytes.
  if (/\d\s*(?:[KMG]b(?:\/s|ps)|[kmgKMG]bits?\b)/.test(trimmed)) {
    return { error: 'write bytes per second ("5.5 GB/s"), not bits ("Gb/s")' };
  }
  const match = ratePattern.exec(trimmed);
  if (!match) {
    return /^[\d.,]+$/.test(trimmed)
      ? { error: 'add a unit, like "5.5 GB/s" or "900 MB/s"' }
      : { error: 'write a rate like "5.5 GB/s" or "900 MB/s"' };
  }
  return { value: amount(match[1]!) * bytesPerUnit[match[2]!.toLowerCase()]! };
}

/** "90 s", "2 min", "1.5 h" → seconds. */
export function parseDuration(text: string): Parsed {
  const match = durationPattern.exec(text.trim());
  if (!match) return { error: 'write a time like "90 s", "5 min" or "1 h"' };
  const unit = match[2]!.toLowerCase();
  const seconds = unit.startsWith('h') ? durationUnits.h! : unit.startsWith('m') ? 60 : 1;
  return { value: amount(match[1]!) * seconds };
}

/** "$179", "179.99", "1299" → dollars. */
export function parseUsd(text: string): Parsed {
  const match = /^\$?\s*(\d+(?:\.\d{1,2})?)\s*(?:usd|\$)?$/i.exec(text.trim().replace(/,/g, ''));
  if (!match) return { error: 'write a price in US dollars, like "179" or "$179.99"' };
  return { value: Number(match[1]) };
}

/** "1200", "1200 TB", "1200 TBW", "1.2 PB" → bytes written before the rated end of life. */
export function parseTbw(text: string): Parsed {
  const trimmed = text.trim().replace(/\s*tbw$/i, ' TB');
  const bare = /^\d+(?:[.,]\d+)?$/.test(trimmed) ? `${trimmed} TB` : trimmed;
  const parsed = parseSize(bare);
  return 'error' in parsed ? { error: 'write the rated endurance like "1200 TBW"' } : parsed;
}

const trimNumber = (value: number, digits: number) => String(Number(value.toFixed(digits)));

function sizeText(bytes: number): string {
  if (bytes >= 1e12) return `${trimNumber(bytes / 1e12, 3)} TB`;
  if (bytes >= 1e9) return `${trimNumber(bytes / 1e9, 2)} GB`;
  return `${trimNumber(bytes / 1e6, 1)} MB`;
}

function rateText(bytesPerSecond: number): string {
  return bytesPerSecond >= 1e9
    ? `${trimNumber(bytesPerSecond / 1e9, 3)} GB/s`
    : `${trimNumber(bytesPerSecond / 1e6, 1)} MB/s`;
}

function durationText(seconds: number): string {
  if (seconds >= 3600 && seconds % 360 === 0) return `${trimNumber(seconds / 3600, 1)} h`;
  if (seconds >= 60 && seconds % 6 === 0) return `${trimNumber(seconds / 60, 1)} min`;
  return `${trimNumber(seconds, 1)} s`;
}

/** A saved device back in the form, to edit it. */
export function draftFromDevice(device: DeviceProfile): DeviceDraft {
  return {
    id: device.id,
    name: device.name,
    capacity: sizeText(device.capacityBytes),
    price: device.priceUsd === null ? '' : String(device.priceUsd),
    interface: ownInterfaces.some((i) => i.value === device.interface)
      ? device.interface
      : 'usb32g2',
    read: device.readBytesPerSecond === null ? '' : rateText(device.readBytesPerSecond),
    write: rateText(device.writeBytesPerSecond),
    cacheKind: device.cacheKind === 'thermal' ? 'fixed' : device.cacheKind,
    cache: device.cacheBytes === null ? '' : sizeText(device.cacheBytes),
    afterCacheWrite:
      device.afterCacheWriteBytesPerSecond === null
        ? ''
        : rateText(device.afterCacheWriteBytesPerSecond),
    recovery: device.cacheRecoverySeconds === null ? '' : durationText(device.cacheRecoverySeconds),
    tbw: device.tbwBytes === null ? '' : `${trimNumber(device.tbwBytes / 1e12, 1)} TBW`,
  };
}

/** A new id for a device: "mine-", the name made safe, and a few random letters. */
export function newDeviceId(name: string, random: () => number = Math.random): string {
  const slug = slugOf(name);
  const tail = Math.floor(random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
  return `mine-${slug || 'ssd'}-${tail}`;
}

const maxBytes = 1e15;
const maxRate = 200e9;

export type DraftResult = { ok: true; device: DeviceProfile } | { ok: false; errors: DraftErrors };

/**
 * Checks every field and returns the device, or a message for each field that is wrong. Figures
 * carry no source: the planner marks them as the user's own.
 */
export function deviceFromDraft(draft: DeviceDraft, makeId = newDeviceId): DraftResult {
  const errors: DraftErrors = {};
  const required = (field: DraftField, parse: (text: string) => Parsed, missing: string) => {
    const text = draft[field].trim();
    if (text === '') {
      errors[field] = missing;
      return null;
    }
    const parsed = parse(text);
    if ('error' in parsed) {
      errors[field] = parsed.error;
      return null;
    }
    return parsed.value;
  };
  const optional = (field: DraftField, parse: (text: string) => Parsed) =>
    draft[field].trim() === '' ? null : required(field, parse, '');
  const within = (
    field: DraftField,
    value: number | null,
    low: number,
    high: number,
    what: string,
  ) => {
    if (value === null) return null;
    if (value <= low || value > high) {
      errors[field] = what;
      return null;
    }
    return value;
  };

  const name = draft.name.trim();
  if (name === '') errors.name = 'give the device a name';
  else if (name.length > 120) errors.name = 'keep the name under 120 characters';

  const capacity = within(
    'capacity',
    required('capacity', parseSize, 'give its capacity, like "2 TB"'),
    0,
    maxBytes,
    'a capacity between 1 GB and 1 PB',
  );
  if (capacity !== null && capacity < 1e9) errors.capacity = 'a capacity between 1 GB and 1 PB';
  const price = required('price', parseUsd, 'give a price; 0 if you already own it');
  const read = within(
    'read',
    optional('read', parseRate),
    0,
    maxRate,
    'a read rate above 0 and below 200 GB/s',
  );
  const write = within(
    'write',
    required('write', parseRate, 'give its write rate, like "5.5 GB/s"'),
    0,
    maxRate,
    'a write rate above 0 and below 200 GB/s',
  );

  const hasCache = draft.cacheKind !== 'none';
  let cache: number | null = null;
  let afterCache: number | null = null;
  let recovery: number | null = null;
  if (hasCache) {
    cache = within(
      'cache',
      required('cache', parseSize, 'give the cache size, or choose "No slowdown"'),
      0,
      maxBytes,
      'a cache above 0',
    );
    if (cache !== null && capacity !== null && cache > capacity) {
      errors.cache = 'the cache cannot be larger than the disk';
      cache = null;
    }
    afterCache = within(
      'afterCacheWrite',
      optional('afterCacheWrite', parseRate),
      0,
      maxRate,
      'a write rate above 0 and below 200 GB/s',
    );
    if (afterCache !== null && write !== null && afterCache > write) {
      errors.afterCacheWrite = 'after the cache a disk writes no faster than in it';
      afterCache = null;
    }
    recovery = optional('recovery', parseDuration);
    if (recovery !== null && recovery > 7 * 86400) {
      errors.recovery = 'a recovery time under a week';
      recovery = null;
    }
  }
  const tbw = within('tbw', optional('tbw', parseTbw), 0, 1e18, 'a rated endurance above 0 TBW');

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    device: {
      id: draft.id ?? makeId(name),
      name,
      interface: draft.interface,
      placement: placementOf(draft.interface),
      protocol: draft.interface === 'sata' ? 'sata' : 'nvme',
      capacityBytes: capacity!,
      priceUsd: price,
      readBytesPerSecond: read,
      writeBytesPerSecond: write!,
      afterCacheWriteBytesPerSecond: afterCache,
      cacheKind: draft.cacheKind,
      cacheBytes: cache,
      cacheAtLeast: false,
      cacheRecoverySeconds: recovery,
      tbwBytes: tbw,
      sources: {},
      origin: 'custom',
    },
  };
}
