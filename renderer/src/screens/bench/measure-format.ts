/** How benchmark figures read on screen: decimal units, as drive makers and Finder use them. */
import { formatBytes } from '../../format.js';

export const dash = '—';

export function formatRate(bytesPerSecond: number | null | undefined): string {
  if (bytesPerSecond === null || bytesPerSecond === undefined || !Number.isFinite(bytesPerSecond))
    return dash;
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** 42 s, 4 min 10 s, 1 h 05 min: the two largest units, no more. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0)
    return dash;
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

/** Latency in the unit that keeps three digits: 85.0 µs, 1.20 ms, 2.50 s. */
export function formatLatency(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return dash;
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
  if (iops === null || iops === undefined || !Number.isFinite(iops)) return dash;
  if (iops >= 1e6) return `${(iops / 1e6).toFixed(2)} M IOPS`;
  if (iops >= 1e4) return `${Math.round(iops / 1e3)} k IOPS`;
  return `${Math.round(iops).toLocaleString('en-US')} IOPS`;
}

export function formatNumber(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return dash;
  return value.toFixed(digits);
}

/** "22 Nov 2025, 14:05" in the user's locale. */
export function formatDateTime(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

const sizeUnits: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  m: 1e6,
  mb: 1e6,
  g: 1e9,
  gb: 1e9,
  t: 1e12,
  tb: 1e12,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};

/** "512MB" → 512e6, "8 GiB" → 8·2³⁰; null when the text is not a size. */
export function parseSizeInput(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  if (!match) return null;
  const multiplier = sizeUnits[match[2]!.toLowerCase()];
  if (multiplier === undefined) return null;
  const bytes = Math.round(Number(match[1]) * multiplier);
  return bytes > 0 ? bytes : null;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
