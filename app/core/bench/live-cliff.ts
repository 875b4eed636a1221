/**
 * The cache cliff as a run goes: the detector re-run as write files finish, so the live chart can
 * mark a cliff as soon as it is clear, long before the final analysis (which stays authoritative).
 */
import type { Finding, Phase } from '../../contract/bench.js';
import { cacheCliff, type CacheCliff, type SeriesPoint } from '../analysis/cache-cliff.js';
import { formatBytes, formatRate } from '../../common/format.js';

/** Re-run after every file up to this many, then after every (n / checksPerRun)-th file. */
const everyFileUpTo = 100;
const checksPerRun = 100;
/** A cliff is reported live only this sure (the final analysis reports from 0.75). */
const liveConfidence = 0.9;
/** A reported cliff is reported again when it moves this much (share of its position or rates). */
const materialShift = 0.1;

export class LiveCliffWatch {
  private readonly points: SeriesPoint[] = [];
  private sinceCheck = 0;
  private reported: CacheCliff | null = null;
  /** Detector runs so far (for tests of the schedule's cost). */
  checks = 0;

  /**
   * Adds the next file of the phase; returns the cliff when it should be reported now: the
   * first time one is found with good confidence, or when its position or rates moved materially.
   */
  add(point: SeriesPoint): CacheCliff | null {
    this.points.push(point);
    this.sinceCheck += 1;
    const n = this.points.length;
    // The detector is O(n log n): checking every file of a 10,000-file run would cost O(n²).
    if (n > everyFileUpTo && this.sinceCheck < n / checksPerRun) return null;
    this.sinceCheck = 0;
    this.checks += 1;
    const cliff = cacheCliff(this.points);
    if (!cliff || cliff.confidence < liveConfidence) return null;
    if (this.reported && !movedMaterially(this.reported, cliff)) return null;
    this.reported = cliff;
    return cliff;
  }
}

function movedMaterially(before: CacheCliff, now: CacheCliff): boolean {
  const shift = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(a), 1);
  return (
    shift(before.atBytes, now.atBytes) > materialShift ||
    shift(before.beforeRate, now.beforeRate) > materialShift ||
    shift(before.afterRate, now.afterRate) > materialShift
  );
}

/** A cliff found during the run, as a finding; its cause is decided by the final analysis. */
export function liveCliffFinding(phase: Phase, cliff: CacheCliff): Finding {
  return {
    kind: 'cliff',
    phase,
    atBytes: cliff.atBytes,
    atSeconds: cliff.atSeconds,
    beforeRate: cliff.beforeRate,
    afterRate: cliff.afterRate,
    confidence: cliff.confidence,
    cause: 'unknown',
    reason: 'found while the run goes on; cache or heat is told apart when it ends',
    recoverySeconds: null,
    message: `The ${phase} rate fell from ${formatRate(cliff.beforeRate)} to ${formatRate(cliff.afterRate)} after ${formatBytes(cliff.atBytes)} (found during the run; the verdict at the end says why).`,
  };
}
