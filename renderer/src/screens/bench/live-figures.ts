/** The big figures of a live run, one per direction the plan moves data in: pure, for the panel. */
import type { Plan } from '../../../../app/contract/plan.js';
import { formatBytes } from '../../../../app/common/format.js';
import { planIs, planKindOf } from '../../../../app/common/plan-kinds.js';
import type { LiveRun } from './live-run.js';
import type { Direction } from './live-samples.js';

/** The directions a plan moves data in (a read-folder run, without a plan, only reads). */
export function planDirections(plan: Plan | null): Direction[] {
  return plan ? planKindOf(plan).directions(plan) : ['read'];
}

export interface DirectionFigure {
  direction: Direction;
  /** Going on now, over (its average), or not started yet. */
  state: 'now' | 'done' | 'next';
  rate: number | null;
  note: string;
}

const nouns: Record<Direction, string> = { write: 'written', read: 'read' };

function queueFigure(live: LiveRun, plan: Plan & { kind: 'presets' }, d: Direction) {
  const opOf = (name: string) => plan.runs.find((r) => r.name === name)?.op ?? 'read';
  const mine = live.queueRuns.filter((q) => opOf(q.name).endsWith(d));
  const last = mine.at(-1);
  if (!last) return { state: 'next' as const, rate: null, note: 'Not started yet' };
  const now = !last.done && live.status === 'running';
  return {
    state: now ? ('now' as const) : ('done' as const),
    rate: last.bytesPerSecond,
    note: last.name,
  };
}

/** The big figure of one direction, from the live samples (or the queue-depth runs of a grid). */
export function directionFigure(live: LiveRun, plan: Plan | null, d: Direction): DirectionFigure {
  if (planIs(plan, 'presets')) return { direction: d, ...queueFigure(live, plan, d) };
  const samples = live.rates[d];
  if (live.status === 'running' && live.phase === d)
    return {
      direction: d,
      state: 'now',
      rate: samples?.latestRate() ?? live.currentRate,
      note: `${formatBytes(samples?.bytesSoFar ?? 0)} ${nouns[d]}`,
    };
  const average = samples?.filesRate() ?? null;
  if (average !== null)
    return {
      direction: d,
      state: 'done',
      rate: average,
      note: `average of ${formatBytes(samples!.filesBytes)} ${nouns[d]}`,
    };
  return {
    direction: d,
    state: 'next',
    rate: null,
    note: d === 'read' ? 'Starts after the writes' : 'Starting…',
  };
}

/**
 * Seconds left of a queue-depth grid: its runs are timed, so the runs still to come at the length
 * the finished ones took (before the first ends, the plan's duration at `scale`, as the engine
 * scales it), less what the current one has run. Null for other plans (they end on bytes).
 */
export function gridSecondsLeft(live: LiveRun, plan: Plan | null, scale = 1): number | null {
  if (!planIs(plan, 'presets') || live.status !== 'running') return null;
  const current = live.queueRuns.at(-1);
  const running = current !== undefined && !current.done;
  const done = live.queueRuns.length - (running ? 1 : 0);
  const perRun =
    done > 0 && live.queueOffset > 0
      ? live.queueOffset / done
      : Math.max(0.25, plan.durationSeconds * scale);
  const intoCurrent = running
    ? Math.max(0, (live.throughput.at(-1)?.x ?? 0) - live.queueOffset)
    : 0;
  return Math.max(0, (plan.runs.length - done) * perRun - intoCurrent);
}
