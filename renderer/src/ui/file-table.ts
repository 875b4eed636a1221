/** The per-file table of a verdict: rows, sorting, and which rows a scrolled window shows. */
import type { FileRecord } from '../../../app/contract/bench-result.js';
import { fileRate } from './result/series.js';

export interface FileRow {
  /** Position in the run (1-based), the order the files were transferred. */
  order: number;
  phase: FileRecord['phase'];
  bytes: number;
  seconds: number;
  rate: number | null;
  cumulativeBytes: number;
  t: number;
  temperatureC: number | null;
}

export type FileColumn = 'order' | 'phase' | 'bytes' | 'seconds' | 'rate' | 'cumulativeBytes' | 't';
export type SortDirection = 'ascending' | 'descending';

export interface FileSort {
  column: FileColumn;
  direction: SortDirection;
}

export function fileRows(files: readonly FileRecord[]): FileRow[] {
  return files.map((file, index) => ({
    order: index + 1,
    phase: file.phase,
    bytes: file.bytes,
    seconds: file.seconds,
    rate: fileRate(file),
    cumulativeBytes: file.cumulativeBytes,
    t: file.t,
    temperatureC: file.temperatureC,
  }));
}

/** Sorted copy; rows without a value (no rate) go last either way; ties keep run order. */
export function sortFileRows(rows: readonly FileRow[], sort: FileSort): FileRow[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const key = sort.column;
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (x === null || y === null) {
      if (x === y) return a.order - b.order;
      return x === null ? 1 : -1;
    }
    const order = typeof x === 'string' ? x.localeCompare(y as string) : x - (y as number);
    return order === 0 ? a.order - b.order : sign * order;
  });
}

/** Clicking a column sorts by it; clicking it again turns the order round. */
export function nextSort(current: FileSort, column: FileColumn): FileSort {
  if (current.column === column)
    return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  // Rates and sizes read best largest first; positions and times in order.
  const descendingFirst = column === 'rate' || column === 'bytes' || column === 'seconds';
  return { column, direction: descendingFirst ? 'descending' : 'ascending' };
}

export interface RowWindow {
  first: number;
  /** One past the last row to draw. */
  last: number;
  offsetTop: number;
  totalHeight: number;
}

/** Rows to draw for a viewport scrolled to `scrollTop`, with `overscan` rows either side. */
export function visibleRows(
  count: number,
  rowHeight: number,
  scrollTop: number,
  viewportHeight: number,
  overscan = 8,
): RowWindow {
  const first = Math.min(count, Math.max(0, Math.floor(scrollTop / rowHeight) - overscan));
  const last = Math.min(count, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  return {
    first,
    last: Math.max(first, last),
    offsetTop: first * rowHeight,
    totalHeight: count * rowHeight,
  };
}
