/** The queue-depth results as the familiar grid: one row per test, read and write columns. */
import type { QueueRunResult, QueueRunSpec } from '../../../../app/contract/bench.js';

export type CellState = 'pending' | 'running' | 'done';

export interface GridCell {
  name: string;
  state: CellState;
  bytesPerSecond: number | null;
  iops: number | null;
  /** Median latency, seconds (known once the run is done). */
  latencyP50: number | null;
}

export interface GridRow {
  test: string;
  read: GridCell | null;
  write: GridCell | null;
}

const isRead = (op: QueueRunSpec['op']) => op === 'read' || op === 'randread';

/** "SEQ1M Q8T1 read" → "SEQ1M Q8T1": the test without its direction. */
export function testName(runName: string): string {
  return runName.replace(/\s+(read|write)$/i, '');
}

export interface LiveQueueFigure {
  name: string;
  bytesPerSecond: number;
  done: boolean;
}

/**
 * Rows in the plan's order. Cells take the final figures when there are any, the live mean
 * otherwise, and stay pending until their run starts.
 */
export function presetGrid(
  specs: readonly Pick<QueueRunSpec, 'name' | 'op' | 'blockSize'>[],
  live: readonly LiveQueueFigure[],
  results: readonly QueueRunResult[] = [],
): GridRow[] {
  const rows = new Map<string, GridRow>();
  for (const spec of specs) {
    const key = testName(spec.name);
    const row = rows.get(key) ?? { test: key, read: null, write: null };
    const final = results.find((r) => r.name === spec.name);
    const going = live.find((r) => r.name === spec.name);
    const cell: GridCell = final
      ? {
          name: spec.name,
          state: 'done',
          bytesPerSecond: final.bytesPerSecond,
          iops: final.iops,
          latencyP50: final.latency.p50,
        }
      : going
        ? {
            name: spec.name,
            state: going.done ? 'done' : 'running',
            bytesPerSecond: going.bytesPerSecond,
            iops: going.bytesPerSecond / spec.blockSize,
            latencyP50: null,
          }
        : { name: spec.name, state: 'pending', bytesPerSecond: null, iops: null, latencyP50: null };
    if (isRead(spec.op)) row.read = cell;
    else row.write = cell;
    rows.set(key, row);
  }
  return [...rows.values()];
}
