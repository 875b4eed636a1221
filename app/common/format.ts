/**
 * Numbers as Plumb writes them, on screen, in the CLI and in reports: decimal units as drive makers
 * and Finder use them, durations as people say them, US dollars. Pure: imports nothing.
 */

/** What a figure reads as when it is missing or not a number. */
export const dash = '—';

const missing = (value: number | null | undefined): value is null | undefined =>
  value === null || value === undefined || !Number.isFinite(value);

/** Bytes with three significant figures: 1.50 GB, 512 MB, 10.0 KB. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return dash;
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = Math.abs(bytes);
  let index = 0;
  while (value >= 1000 && index < units.length - 1) {
    value /= 1000;
    index += 1;
  }
  // Three significant figures, decided after rounding so 9.999 MB reads "10.0 MB", not "10.00 MB".
  const digitsFor = (v: number) => (index === 0 || v >= 100 ? 0 : v >= 10 ? 1 : 2);
  let digits = digitsFor(value);
  const rounded = Number(value.toFixed(digits));
  if (rounded >= 1000 && index < units.length - 1) {
    value = rounded / 1000;
    index += 1;
  } else {
    value = rounded;
  }
  digits = digitsFor(value);
  return `${bytes < 0 ? '-' : ''}${value.toFixed(digits)} ${units[index]}`;
}

/** A round size as a plan names it, one decimal at most: "2 MB", "1.1 GB", "500 KB". */
export function formatRoundBytes(bytes: number): string {
  const [value, unit] =
    bytes >= 1e9 ? [bytes / 1e9, 'GB'] : bytes >= 1e6 ? [bytes / 1e6, 'MB'] : [bytes / 1e3, 'KB'];
  return `${Number(value.toFixed(1))} ${unit}`;
}

/** A rate with three significant figures (1.40 GB/s); a missing one as a dash. */
export function formatRate(bytesPerSecond: number | null | undefined): string {
  return missing(bytesPerSecond) ? dash : `${formatBytes(bytesPerSecond)}/s`;
}

/** A rate in GB/s with two decimals, as the planner compares disks: "5.50 GB/s", "0.45 GB/s". */
export function formatGbPerSecond(bytesPerSecond: number): string {
  return `${(bytesPerSecond / 1e9).toFixed(2)} GB/s`;
}

/** Capacities as drive makers write them: "50 GB", "1.5 TB", "512 MB". */
export function formatSize(bytes: number): string {
  if (bytes >= 1e12) return `${Number((bytes / 1e12).toFixed(2))} TB`;
  if (bytes >= 1e9) return `${Number((bytes / 1e9).toFixed(bytes >= 1e10 ? 0 : 1))} GB`;
  return `${Math.round(bytes / 1e6)} MB`;
}

export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 100)} %`;
}

/** A time to compare: "44.8 s", "3 min 5 s", "1 h 2 min" (the planner's burst times). */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(2) : seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A time that passes: 42 s, 4 min 10 s, 1 h 05 min: the two largest units, no more. */
export function formatDuration(seconds: number | null | undefined): string {
  if (missing(seconds) || seconds < 0) return dash;
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  const total = Math.round(seconds);
  if (total < 60) return `${total} s`;
  const minutes = Math.floor(total / 60);
  if (minutes < 60) {
    const rest = total % 60;
    return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** An estimated time in words: "about 4.9 s", or "under 0.1 s" where "about 0.0 s" would be said. */
export function aboutDuration(seconds: number): string {
  return seconds < 0.05 ? 'under 0.1 s' : `about ${formatDuration(seconds)}`;
}

/** Latency in the unit that keeps three digits: 85.0 µs, 1.20 ms, 2.50 s. */
export function formatLatency(seconds: number | null | undefined): string {
  if (missing(seconds)) return dash;
  const magnitude = Math.abs(seconds);
  const [value, unit] =
    magnitude < 1e-3
      ? [seconds * 1e6, 'µs']
      : magnitude < 1
        ? [seconds * 1e3, 'ms']
        : [seconds, 's'];
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

export function formatIops(iops: number | null | undefined): string {
  if (missing(iops)) return dash;
  if (iops >= 1e6) return `${(iops / 1e6).toFixed(2)} M IOPS`;
  if (iops >= 1e4) return `${Math.round(iops / 1e3)} k IOPS`;
  return `${Math.round(iops).toLocaleString('en-US')} IOPS`;
}

export function formatNumber(value: number | null | undefined, digits = 3): string {
  return missing(value) ? dash : value.toFixed(digits);
}

/** Whole US dollars: "$1,299". */
export function formatUsd(usd: number): string {
  return `$${Math.round(usd).toLocaleString('en-US')}`;
}

/** "$179–249", or one price when both ends round alike. */
export function formatUsdRange([low, high]: readonly [number, number]): string {
  return Math.round(low) === Math.round(high)
    ? formatUsd(low)
    : `${formatUsd(low)}–${Math.round(high).toLocaleString('en-US')}`;
}

export function yesNoUnknown(value: boolean | null): string {
  return value === null ? 'Unknown' : value ? 'Yes' : 'No';
}

/** Items as a sentence lists them: "a", "a and b", "a, b and c" (or "a, b or c"). */
export function listInWords(items: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  return items.length < 2
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)!}`;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "22 Nov 2025, 14:05" in the user's locale. */
export function formatDateTime(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A name made safe for an id or a file name: "My TB5 SSD!" → "my-tb5-ssd" (empty if nothing is). */
export function slugOf(name: string, maxLength = 60): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/, '');
}
