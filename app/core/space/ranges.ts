/** Half-open byte ranges [start, end) on a device or in a file. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Sorted, non-overlapping, with touching ranges joined. */
export function mergeRanges(ranges: readonly ByteRange[]): ByteRange[] {
  const sorted = ranges.filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const merged: ByteRange[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/** Total bytes covered (ranges may overlap). */
export function coveredBytes(ranges: readonly ByteRange[]): number {
  return mergeRanges(ranges).reduce((sum, r) => sum + (r.end - r.start), 0);
}

/** True when every byte of `inner` lies in `outer`. */
export function containsAll(outer: readonly ByteRange[], inner: readonly ByteRange[]): boolean {
  const a = mergeRanges(outer);
  return mergeRanges(inner).every((r) => a.some((o) => o.start <= r.start && r.end <= o.end));
}

/**
 * Cuts overlapping labelled ranges into elementary segments, each with the set of labels covering
 * it: the sweep used to see which files reference which physical blocks.
 */
export function segmentsByCover<L>(
  items: readonly { range: ByteRange; label: L }[],
): { range: ByteRange; labels: L[] }[] {
  const events: { at: number; item: number; opens: boolean }[] = [];
  items.forEach((item, index) => {
    if (item.range.end <= item.range.start) return;
    events.push({ at: item.range.start, item: index, opens: true });
    events.push({ at: item.range.end, item: index, opens: false });
  });
  events.sort((a, b) => a.at - b.at);
  const active = new Set<number>();
  const segments: { range: ByteRange; labels: L[] }[] = [];
  for (let i = 0; i < events.length;) {
    const at = events[i]!.at;
    for (; i < events.length && events[i]!.at === at; i += 1) {
      const event = events[i]!;
      if (event.opens) active.add(event.item);
      else active.delete(event.item);
    }
    const next = events[i]?.at;
    if (next !== undefined && active.size > 0) {
      segments.push({
        range: { start: at, end: next },
        labels: [...active].map((k) => items[k]!.label),
      });
    }
  }
  return segments;
}
