/**
 * The queue-depth grid as other tools share it: figures in MB/s or IOPS and a text block like
 * CrystalDiskMark's "Copy" (the image is drawn in grid-image.ts).
 */
import { formatBytes, formatDateTime } from '../../../../app/common/format.js';
import type { Plan } from '../../../../app/contract/plan.js';
import { withoutPass, type GridCell, type GridRow } from './presets-grid.js';

export type GridUnit = 'MB/s' | 'IOPS';

/** Where and when the grid was measured, for the copied text and image. */
export interface GridSource {
  volume: string;
  /** ISO date and time the run started. */
  startedAt: string;
  /** The test file, each run's length and the passes of each test, as the plan ran them. */
  test?: GridTest | null;
}

export interface GridTest {
  fileBytes: number;
  seconds: number;
  passes: number;
}

/** What a grid plan (as it ran, scaled) tested with; null for any other plan. */
export function gridTestOf(plan: Plan | null | undefined): GridTest | null {
  if (!plan || plan.kind !== 'presets') return null;
  const tests = new Set(plan.runs.map((run) => withoutPass(run.name))).size;
  return {
    fileBytes: plan.fileBytes,
    seconds: plan.durationSeconds,
    passes: tests > 0 ? Math.round(plan.runs.length / tests) : 1,
  };
}

/** "Test: 1.07 GB file, 5 s a run, best of 3 passes" (CrystalDiskMark's "Test: 1 GiB (x3)"). */
export function gridTestWords(test: GridTest): string {
  const passes = test.passes === 1 ? 'one pass' : `best of ${test.passes} passes`;
  return `Test: ${formatBytes(test.fileBytes)} file, ${test.seconds} s a run, ${passes}`;
}

/** A cell's figure in the chosen unit, without the unit: "3512.45", "857432". */
export function gridNumber(cell: GridCell | null, unit: GridUnit): string | null {
  if (!cell || cell.bytesPerSecond === null) return null;
  if (unit === 'MB/s') return (cell.bytesPerSecond / 1e6).toFixed(2);
  return cell.iops === null ? null : Math.round(cell.iops).toLocaleString('en-US');
}

/** The cell's figure with its unit: "3512.45 MB/s", "857,432 IOPS", or a dash. */
export function gridFigure(cell: GridCell | null, unit: GridUnit): string {
  const number = gridNumber(cell, unit);
  return number === null ? '—' : `${number} ${unit}`;
}

const rule = '-'.repeat(72);

/** The grid as a text block: a header with the volume and date, then a line per test and direction. */
export function gridText(
  rows: readonly GridRow[],
  unit: GridUnit,
  source: GridSource | null,
): string {
  const width = Math.max(...rows.map((r) => r.test.length), 4);
  const line = (row: GridRow, cell: GridCell | null) => {
    const value = gridFigure(cell, unit).padStart(18);
    const other = unit === 'MB/s' ? gridFigure(cell, 'IOPS') : gridFigure(cell, 'MB/s');
    return `  ${row.test.padEnd(width)} ${value}  [${other}]`;
  };
  return [
    rule,
    'Plumb queue-depth grid',
    rule,
    `Volume: ${source?.volume ?? 'not known'}`,
    `Date:   ${source ? formatDateTime(source.startedAt) : 'not known'}`,
    ...(source?.test ? [gridTestWords(source.test)] : []),
    unit === 'MB/s' ? 'MB/s = 1,000,000 bytes per second' : 'IOPS = I/O operations per second',
    '',
    '[Read]',
    ...rows.map((row) => line(row, row.read)),
    '',
    '[Write]',
    ...rows.map((row) => line(row, row.write)),
    '',
  ].join('\n');
}
