/** The data/hole bar of a sparse file: data ranges as fractions of the file, merged to a drawable few. */
import type { SparseFile } from '../../../../app/contract/space.js';
import { formatBytes, formatPercent } from '../../../../app/common/format.js';

export interface MapSegment {
  /** Where the data starts, 0..1 of the logical size. */
  start: number;
  /** How much of the bar it covers, 0..1. */
  width: number;
}

/**
 * Data segments of the bar. Ranges closer than one `resolution`-th of the file merge, so a file of
 * a million small extents still draws as at most about `resolution` segments; holes are the gaps.
 */
export function holeMapSegments(
  file: Pick<SparseFile, 'logicalBytes' | 'data'>,
  resolution = 240,
): MapSegment[] {
  const size = file.logicalBytes;
  if (size <= 0) return [];
  const gap = size / resolution;
  const ranges = [...file.data]
    .filter((r) => r.length > 0)
    .sort((a, b) => a.offset - b.offset)
    .map((r) => ({ from: Math.max(0, r.offset), to: Math.min(size, r.offset + r.length) }))
    .filter((r) => r.to > r.from);
  const merged: { from: number; to: number }[] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range.from - last.to < gap) last.to = Math.max(last.to, range.to);
    else merged.push({ ...range });
  }
  return merged.map((r) => ({ start: r.from / size, width: (r.to - r.from) / size }));
}

/** Bytes inside data ranges (may exceed allocated bytes on compressed or shared storage). */
export function dataBytes(file: Pick<SparseFile, 'logicalBytes' | 'data'>): number {
  return file.data.reduce(
    (sum, r) => sum + Math.max(0, Math.min(file.logicalBytes, r.offset + r.length) - r.offset),
    0,
  );
}

/** What the bar shows, for people who cannot see it. */
export function holeMapLabel(file: SparseFile): string {
  if (!file.holesSupported) return 'The system does not report holes for this file.';
  const data = dataBytes(file);
  const holes = Math.max(0, file.logicalBytes - data);
  const ranges = file.data.length;
  return `${ranges.toLocaleString('en-US')} data ${ranges === 1 ? 'range' : 'ranges'} holding ${formatBytes(data)}; holes ${formatBytes(holes)} (${formatPercent(file.logicalBytes ? holes / file.logicalBytes : 0)} of the file)`;
}

/** Logical minus allocated: what the holes save now (never negative). */
export function sparseSaving(file: Pick<SparseFile, 'logicalBytes' | 'allocatedBytes'>): number {
  return Math.max(0, file.logicalBytes - file.allocatedBytes);
}
