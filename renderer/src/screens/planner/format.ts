/** How the planner writes its numbers: decimal sizes, seconds as people say them, dollars. */
export function formatSize(bytes: number): string {
  if (bytes >= 1e12) return `${Number((bytes / 1e12).toFixed(2))} TB`;
  if (bytes >= 1e9) return `${Number((bytes / 1e9).toFixed(bytes >= 1e10 ? 0 : 1))} GB`;
  return `${Math.round(bytes / 1e6)} MB`;
}

export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(2) : seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function formatUsd(usd: number): string {
  return `$${Math.round(usd).toLocaleString('en-US')}`;
}

export function formatUsdRange([low, high]: readonly [number, number]): string {
  return Math.round(low) === Math.round(high)
    ? formatUsd(low)
    : `${formatUsd(low)}–${Math.round(high).toLocaleString('en-US')}`;
}

export function formatRate(bytesPerSecond: number): string {
  return `${(bytesPerSecond / 1e9).toFixed(2)} GB/s`;
}

/** Bytes ↔ the gigabytes a form field shows. */
export const toGb = (bytes: number) => Number((bytes / 1e9).toFixed(1));
export const fromGb = (gigabytes: number) => Math.round(gigabytes * 1e9);
