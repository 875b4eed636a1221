/**
 * The cache cliff as a run goes: the detector re-run as write files finish, so the live chart can
 * mark a cliff as soon as it is clear, long before the final analysis (which stays authoritative).
 * It is the final analysis's own detector (phaseDrop): on the samples taken inside the files when
 * there are enough, else on the per-file rates.
 */
import type { FileRecord, Finding, Phase } from '../../contract/bench-result.js';
import type { SeriesPoint } from '../analysis/transfer-columns.js';
import { dropSentence, phaseDrop, type PhaseDrop } from '../analysis/findings.js';
import type { PhaseSamples } from '../../common/phase-samples.js';
import type { RunContext } from './run-context.js';

/** Re-run after every file up to this many, then after every (n / checksPerRun)-th file. */
const everyFileUpTo = 100;
const checksPerRun = 100;
/** A cliff is reported live only this sure (the final analysis reports from 0.75). */
const liveConfidence = 0.9;
/** A reported cliff is reported again when it moves this much (share of its position or rates). */
const materialShift = 0.1;

/** What the live finding needs of a drop. */
export type LiveDrop = Pick<
  PhaseDrop,
  'atBytes' | 'atSeconds' | 'beforeRate' | 'afterRate' | 'confidence' | 'measured'
> &
  Partial<Pick<PhaseDrop, 'steps' | 'repeating'>>;

export class LiveCliffWatch {
  private readonly points: SeriesPoint[] = [];
  private sinceCheck = 0;
  private reported: LiveDrop | null = null;
  /** Detector runs so far (for tests of the schedule's cost). */
  checks = 0;

  /**
   * Adds the next file of the phase (and the phase's samples so far, when taken); returns the
   * drop when it should be reported now: the first time one is found with good confidence, or when
   * its position or rates moved materially.
   */
  add(point: SeriesPoint, samples?: PhaseSamples): PhaseDrop | null {
    this.points.push(point);
    this.sinceCheck += 1;
    const n = this.points.length;
    // Each check reads the whole phase so far: checking every file of a 10,000-file run would
    // cost O(n²).
    if (n > everyFileUpTo && this.sinceCheck < n / checksPerRun) return null;
    this.sinceCheck = 0;
    this.checks += 1;
    const drop = phaseDrop('write', this.points, samples);
    if (!drop || drop.confidence < liveConfidence) return null;
    if (this.reported && !movedMaterially(this.reported, drop)) return null;
    this.reported = drop;
    return drop;
  }
}

function movedMaterially(before: LiveDrop, now: LiveDrop): boolean {
  const shift = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(a), 1);
  return (
    shift(before.atBytes, now.atBytes) > materialShift ||
    shift(before.beforeRate, now.beforeRate) > materialShift ||
    shift(before.afterRate, now.afterRate) > materialShift ||
    Boolean(before.repeating) !== Boolean(now.repeating)
  );
}

/** A drop found during the run, as a finding; its cause is decided by the final analysis. */
export function liveCliffFinding(phase: Phase, drop: LiveDrop): Finding {
  return {
    kind: drop.repeating ? 'throttling' : 'cliff',
    phase,
    atBytes: drop.atBytes,
    atSeconds: drop.atSeconds,
    beforeRate: drop.beforeRate,
    afterRate: drop.afterRate,
    confidence: drop.confidence,
    cause: 'unknown',
    reason: 'found while the run goes on; cache or heat is told apart when it ends',
    recoverySeconds: null,
    ...(drop.steps ? { steps: drop.steps } : {}),
    ...(drop.repeating ? { repeating: drop.repeating } : {}),
    message: `${dropSentence(phase, drop, 'unknown')} (Found during the run; the verdict at the end says why.)`,
  };
}

/** Emits a `finding` when the watch sees a cliff (first found, or moved) after this file. */
export function reportLiveCliff(
  context: RunContext,
  watch: LiveCliffWatch,
  file: FileRecord,
): void {
  const cliff = watch.add(file, context.samples.get('write'));
  if (cliff) context.emit({ type: 'finding', finding: liveCliffFinding('write', cliff) });
}
