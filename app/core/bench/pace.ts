/**
 * How fast a run went on its volume, wall clock included: per phase, the seconds each file costs
 * beyond its bytes (open, flush, close, making the data) and the rate of its bytes; and the time
 * the run spends outside its phases. The UI estimates the next run on that volume from it.
 */
import type { RunPace } from '../../contract/bench.js';
import type { FileRecord, ResultDocument } from '../../contract/bench-result.js';
import { headline } from '../../common/headline-rate.js';
import { withHeadline } from '../analysis/headline-rate.js';

type Phase = 'write' | 'read';

function phasePace(files: readonly FileRecord[], rate: number | null) {
  if (files.length === 0 || rate === null || !(rate > 0)) return null;
  // `t` counts from the start of the phase, so the last file's is the phase's wall time.
  const wallSeconds = Math.max(...files.map((f) => f.t));
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
  const fileSeconds = Math.max(0, (wallSeconds - bytes / rate) / files.length);
  return { bytesPerSecond: rate, fileSeconds, wallSeconds };
}

/** The grid's runs each last the plan's duration; what the wall clock adds, per run. */
function queueRunSeconds(document: ResultDocument, totalSeconds: number): number | null {
  const runs = document.runs?.length ?? 0;
  if (runs === 0) return null;
  const duration = (document.plan as { durationSeconds?: unknown }).durationSeconds;
  if (typeof duration !== 'number') return null;
  return Math.max(0, (totalSeconds - runs * duration) / runs);
}

export function runPace(document: ResultDocument): RunPace | null {
  if (!document.finishedAt) return null;
  const totalSeconds = (Date.parse(document.finishedAt) - Date.parse(document.startedAt)) / 1000;
  const queue = queueRunSeconds(document, totalSeconds);
  if (queue !== null) return { write: null, read: null, runSeconds: 0, queueRunSeconds: queue };
  if (document.files.length === 0) return null;
  const phases = {} as Record<Phase, ReturnType<typeof phasePace>>;
  const withRates = withHeadline(document);
  for (const phase of ['write', 'read'] as const) {
    // The headline, the one rate of the run everywhere; a file's fixed cost is what the wall
    // clock adds beyond its bytes at that rate.
    const rate = headline(withRates, phase).rate;
    phases[phase] = phasePace(
      document.files.filter((f) => f.phase === phase),
      rate,
    );
  }
  const inPhases = (phases.write?.wallSeconds ?? 0) + (phases.read?.wallSeconds ?? 0);
  const strip = (p: ReturnType<typeof phasePace>) =>
    p && { bytesPerSecond: p.bytesPerSecond, fileSeconds: p.fileSeconds };
  return {
    write: strip(phases.write),
    read: strip(phases.read),
    runSeconds: Math.max(0, totalSeconds - inPhases),
  };
}
