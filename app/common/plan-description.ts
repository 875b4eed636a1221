/**
 * A plan's description from its own sizes, so a plan shrunk by `--scale` says the sizes it
 * actually used ("5 s each on a 10.7 MB file", not the full plan's 1 GiB). Structural, so core
 * (which stores it) and the renderer (for documents stored before) share it. Pure: imports nothing.
 */
import { formatBytes, formatDuration } from './format.js';
import { scalePercent } from './quick-run.js';

/** The fields of the six plan kinds that the description reads (contract bench.ts Plan). */
export type DescribedPlan =
  | {
      kind: 'files';
      sizes?: readonly number[];
      logUniform?: { count: number; minBytes: number; maxBytes: number };
      repeats: number;
      shuffle: boolean;
      readBack: boolean;
    }
  | {
      kind: 'sustained';
      minFileBytes: number;
      maxFileBytes: number;
      totalBytes: number | null;
      timeLimitSeconds: number | null;
      recovery: { idleSeconds: number; probeBytes: number } | null;
    }
  | { kind: 'capacity'; fileBytes: number; totalBytes: number | null }
  | {
      kind: 'presets';
      fileBytes: number;
      durationSeconds: number;
      runs: readonly { name: string }[];
    }
  | { kind: 'paired'; fileBytes: number; filesPerStage: number }
  | { kind: 'task'; inputBytes: number; chunkBytes: number; repeats: number };

/** Seconds as set in a plan: "0.25 s", "5 s", "2 min". */
const seconds = (value: number) =>
  value < 10 ? `${Number(value.toPrecision(2))} s` : formatDuration(value);

const range = (low: number, high: number) =>
  low === high ? formatBytes(low) : `${formatBytes(low)} to ${formatBytes(high)}`;

function filesText(plan: Extract<DescribedPlan, { kind: 'files' }>): string {
  const count = plan.logUniform?.count ?? plan.sizes?.length ?? 0;
  const sizes = plan.sizes ?? [];
  const low = plan.logUniform?.minBytes ?? Math.min(...sizes);
  const high = plan.logUniform?.maxBytes ?? Math.max(...sizes);
  const how = [plan.logUniform ? 'log-uniform sizes' : null, plan.shuffle ? 'shuffled' : null]
    .filter(Boolean)
    .join(', ');
  const repeats = plan.repeats > 1 ? `, ${plan.repeats} repeats each` : '';
  const read = plan.readBack ? ', written then read back uncached' : ', written';
  return `${count} ${count === 1 ? 'file' : 'files'} of ${range(low, high)}${how ? ` (${how})` : ''}${repeats}${read}.`;
}

/** What the plan does, with the sizes it holds. */
export function planDescription(plan: DescribedPlan): string {
  switch (plan.kind) {
    case 'files':
      return filesText(plan);
    case 'sustained': {
      const limits = [
        plan.totalBytes === null ? null : formatBytes(plan.totalBytes),
        plan.timeLimitSeconds === null ? null : seconds(plan.timeLimitSeconds),
      ].filter(Boolean);
      const until = limits.length ? limits.join(' or ') : 'a total set from the free space';
      const probe = plan.recovery
        ? `, then idle ${seconds(plan.recovery.idleSeconds)} and probe with ${formatBytes(plan.recovery.probeBytes)} until the rate is back`
        : '';
      return `Files of ${range(plan.minFileBytes, plan.maxFileBytes)} until ${until}${probe}.`;
    }
    case 'capacity': {
      const fill =
        plan.totalBytes === null
          ? 'the free space (all but what Plumb keeps free)'
          : `up to ${formatBytes(plan.totalBytes)} of the free space`;
      return `Fill ${fill} with files of ${formatBytes(plan.fileBytes)}, every 4 KiB block stamped, then read them all back and check every block.`;
    }
    case 'presets':
      return `${plan.runs.map((r) => r.name).join(', ')}: ${seconds(plan.durationSeconds)} each on a ${formatBytes(plan.fileBytes)} file.`;
    case 'paired':
      return `Two folders: ${plan.filesPerStage} files of ${formatBytes(plan.fileBytes)} each alone, then both together.`;
    case 'task':
      return `Compress a ${formatBytes(plan.inputBytes)} partly compressible file in ${formatBytes(plan.chunkBytes)} chunks with every core, from and to the disk and in memory, ${plan.repeats} ${plan.repeats === 1 ? 'time' : 'times'} each.`;
  }
}

const kinds = new Set(['files', 'sustained', 'capacity', 'presets', 'paired', 'task']);

/**
 * What a stored run's plan did, for a reader: its own description for a full run; for a quick run
 * (scale below 1) one made from the sizes it used, whatever description was stored with it
 * (results saved before scaled plans said their sizes kept the full plan's words).
 */
export function runPlanDescription(plan: object, scale: number): string {
  const { kind, description } = plan as { kind?: unknown; description?: unknown };
  const stored = typeof description === 'string' ? description : '';
  if (scale >= 1 || !kinds.has(kind as string)) return stored;
  return `At ${scalePercent(scale)} of the full plan: ${planDescription(plan as DescribedPlan)}`;
}
