import { PlumbError } from '../contract/errors.js';

const multipliers: Record<string, number> = {
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

/** "512MB" → 512e6, "8GiB" → 8·2³⁰, "100" → 100. Decimal units as drive makers use them. */
export function parseSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  const unit = match?.[2]?.toLowerCase() ?? '';
  const multiplier = multipliers[unit];
  if (!match || multiplier === undefined) {
    throw new PlumbError(
      'EUSAGE',
      `Cannot read the size "${text}": use a number with a unit, like 512MB or 8GiB.`,
    );
  }
  return Math.round(Number(match[1]) * multiplier);
}

/** Bytes in decimal units with three significant figures: 1.50 GB, 512 MB, 10.0 KB. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '—';
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

export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}
