/** The queue-depth results as the familiar grid: one row per test, read and write columns. */
import type { QueueRunResult } from '../../../../app/contract/bench-result.js';
import type { PresetsPlan, QueueRunSpec } from '../../../../app/contract/plan.js';
import { scaledPlan } from '../../../../app/common/plan-kinds.js';

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

/** The pass suffix of a run of a grid with a count above one. */
const passOf = /\s+·\s+pass\s+\d+\/\d+$/;

/** "SEQ1M Q8T1 read · pass 2/5" → "SEQ1M Q8T1 read". */
export function withoutPass(runName: string): string {
  return runName.replace(passOf, '');
}

/** "SEQ1M Q8T1 read · pass 2/5" → "SEQ1M Q8T1": the test without its direction and pass. */
export function testName(runName: string): string {
  return runName.replace(passOf, '').replace(/\s+(read|write)$/i, '');
}

const MiB = 1024 * 1024;

/** The grid's test sizes and counts, as CrystalDiskMark offers them. */
export const gridSizes: readonly number[] = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192].map(
  (m) => m * MiB,
);
export const gridCounts: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 9];

export interface GridSettings {
  /** The test file's size before any scale. */
  fileBytes: number;
  /** Passes of each test; the grid shows the best. */
  count: number;
}

/** "1 GiB", "64 MiB": the sizes the selector shows. */
export function gridSizeLabel(bytes: number): string {
  return bytes >= 1024 * MiB ? `${bytes / (1024 * MiB)} GiB` : `${bytes / MiB} MiB`;
}

/** The settings a presets plan runs with (a built-in one runs each test once). */
export function gridSettingsOf(plan: PresetsPlan): GridSettings {
  const first = plan.runs[0]?.name ?? '';
  const passes = /pass \d+\/(\d+)$/.exec(first);
  return { fileBytes: plan.fileBytes, count: passes ? Number(passes[1]) : 1 };
}

/**
 * The presets plan with another test size and count: each test is run `count` times in a row
 * (passes named "… · pass 2/5"), as CrystalDiskMark does. The plan itself when nothing changes.
 */
export function withGridSettings(plan: PresetsPlan, settings: GridSettings): PresetsPlan {
  const { fileBytes, count } = settings;
  if (!gridSizes.includes(fileBytes))
    throw new Error(`Choose a test size of ${gridSizes.map(gridSizeLabel).join(', ')}.`);
  if (!gridCounts.includes(count)) throw new Error('Choose a count from 1 to 9.');
  const now = gridSettingsOf(plan);
  if (now.fileBytes === fileBytes && now.count === count) return plan;
  // One spec per test: a pass suffix dropped, later passes skipped.
  const tests = plan.runs.filter((run) => !passOf.exec(run.name) || /pass 1\//.test(run.name));
  const runs = tests.flatMap((spec) => {
    const base = spec.name.replace(passOf, '');
    return count === 1
      ? [{ ...spec, name: base }]
      : Array.from({ length: count }, (_, i) => ({
          ...spec,
          name: `${base} · pass ${i + 1}/${count}`,
        }));
  });
  return { ...plan, fileBytes, runs };
}

/**
 * Why the grid cannot run at this scale, in words, or null: its file, scaled, must hold a whole
 * block of its largest runs (1 MiB for SEQ1M).
 */
export function gridSizeProblem(
  plan: PresetsPlan,
  scale: number,
  scaleText: string,
  formatBytes: (bytes: number) => string,
): string | null {
  const block = Math.max(...plan.runs.map((run) => run.blockSize));
  // As the engine will scale it (the kind's own rule).
  const scaled = (bytes: number) => scaledPlan({ ...plan, fileBytes: bytes }, scale).fileBytes;
  if (scaled(plan.fileBytes) >= block) return null;
  const least = gridSizes.find((bytes) => scaled(bytes) >= block);
  const fix = least
    ? `choose a test size of ${gridSizeLabel(least)} or more, or a larger scale`
    : 'choose a larger scale';
  return `At ${scaleText.toLowerCase()} scale the test file would be ${formatBytes(scaled(plan.fileBytes))}, less than one ${formatBytes(block)} block: ${fix}.`;
}

export interface LiveQueueFigure {
  name: string;
  bytesPerSecond: number;
  done: boolean;
}

/** Passes of one test in one direction as one cell: the best figure so far, as other tools show. */
function bestOf(passes: GridCell[]): GridCell {
  const measured = passes.filter((c) => c.bytesPerSecond !== null);
  const best = measured.reduce<GridCell | null>(
    (top, c) => (top === null || c.bytesPerSecond! > top.bytesPerSecond! ? c : top),
    null,
  );
  const state: CellState = passes.every((c) => c.state === 'done')
    ? 'done'
    : passes.every((c) => c.state === 'pending')
      ? 'pending'
      : 'running';
  return { ...(best ?? passes[0]!), state };
}

/**
 * Rows in the plan's order. Cells take the final figures when there are any, the live mean
 * otherwise, and stay pending until their run starts; a test run several times shows its best.
 */
export function presetGrid(
  specs: readonly Pick<QueueRunSpec, 'name' | 'op' | 'blockSize'>[],
  live: readonly LiveQueueFigure[],
  results: readonly QueueRunResult[] = [],
): GridRow[] {
  const passes = new Map<string, { read: GridCell[]; write: GridCell[] }>();
  for (const spec of specs) {
    const key = testName(spec.name);
    const row = passes.get(key) ?? { read: [], write: [] };
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
    (isRead(spec.op) ? row.read : row.write).push(cell);
    passes.set(key, row);
  }
  return [...passes].map(([test, row]) => ({
    test,
    read: row.read.length ? bestOf(row.read) : null,
    write: row.write.length ? bestOf(row.write) : null,
  }));
}
