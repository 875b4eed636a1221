/** Numbers as people read them: decimal units, as drive makers and Finder use. */
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

export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 100)} %`;
}

export function yesNoUnknown(value: boolean | null): string {
  return value === null ? 'Unknown' : value ? 'Yes' : 'No';
}
