/**
 * Chart series built from file records and findings: pure, so the charts only draw. Rates are
 * bytes/s, sizes bytes; points are sorted by x because line charts and decimation expect it.
 */
import type { FileRecord, Finding, Phase, QueueRunResult } from '../../../../app/contract/bench.js';

export interface Point {
  x: number;
  y: number;
}

/** The rate of one transfer, or null when it took no measurable time. */
export function fileRate(file: Pick<FileRecord, 'bytes' | 'seconds'>): number | null {
  return file.seconds > 0 ? file.bytes / file.seconds : null;
}

function points(
  files: readonly FileRecord[],
  phase: Phase,
  x: (file: FileRecord) => number,
): Point[] {
  const out: Point[] = [];
  for (const file of files) {
    if (file.phase !== phase) continue;
    const y = fileRate(file);
    if (y !== null) out.push({ x: x(file), y });
  }
  return out.sort((a, b) => a.x - b.x);
}

/** Rate against bytes of the phase so far: where a cache cliff or throttling shows as a step. */
export function rateByCumulative(files: readonly FileRecord[], phase: Phase): Point[] {
  return points(files, phase, (f) => f.cumulativeBytes);
}

/** Rate against file size (for a log axis): the curve that rises to a plateau. */
export function rateBySize(files: readonly FileRecord[], phase: Phase): Point[] {
  return points(files, phase, (f) => f.bytes);
}

/** Rate against seconds since the phase started. */
export function rateOverTime(files: readonly FileRecord[], phase: Phase): Point[] {
  return points(files, phase, (f) => f.t);
}

/**
 * At most two points (lowest and highest rate) per bucket of equal width on a log x axis, in x
 * order; chart.js's own decimation works only on linear and time axes. Fewer points than
 * 2 × buckets come back unchanged.
 */
export function thinForLogAxis(sorted: readonly Point[], buckets: number): Point[] {
  if (sorted.length <= 2 * buckets) return [...sorted];
  const positive = sorted.filter((p) => p.x > 0);
  if (positive.length === 0) return [];
  const low = Math.log(positive[0]!.x);
  const span = Math.log(positive[positive.length - 1]!.x) - low || 1;
  const kept: Point[] = [];
  let bucketOf = -1;
  let min: Point | undefined;
  let max: Point | undefined;
  const flush = () => {
    if (!min || !max) return;
    if (min === max) kept.push(min);
    else kept.push(...(min.x <= max.x ? [min, max] : [max, min]));
  };
  for (const point of positive) {
    const bucket = Math.min(buckets - 1, Math.floor(((Math.log(point.x) - low) / span) * buckets));
    if (bucket !== bucketOf) {
      flush();
      bucketOf = bucket;
      min = max = point;
    } else {
      if (point.y < min!.y) min = point;
      if (point.y > max!.y) max = point;
    }
  }
  flush();
  return kept;
}

export interface DecimationChoice {
  enabled: boolean;
  /** Draw dots only while they can be told apart. */
  pointRadius: number;
}

/** Dots for a few hundred files, a thin line of LTTB-decimated samples for thousands. */
export function decimationFor(pointCount: number): DecimationChoice {
  if (pointCount > 2000) return { enabled: true, pointRadius: 0 };
  if (pointCount > 400) return { enabled: true, pointRadius: 1.5 };
  return { enabled: false, pointRadius: 2.5 };
}

export interface CeilingMark {
  rate: number;
  label: string;
}

/** The interface ceiling a finding names (the lowest, if several). */
export function ceilingOf(findings: readonly Finding[]): CeilingMark | null {
  let mark: CeilingMark | null = null;
  for (const finding of findings) {
    if (finding.kind !== 'exceeds-interface') continue;
    if (!mark || finding.ceilingRate < mark.rate)
      mark = { rate: finding.ceilingRate, label: finding.interface };
  }
  return mark;
}

export interface CliffMark {
  phase: Phase | null;
  atBytes: number;
  beforeRate: number;
  afterRate: number;
  label: string;
}

export function cliffMarks(findings: readonly Finding[]): CliffMark[] {
  const marks: CliffMark[] = [];
  for (const finding of findings) {
    if (finding.kind !== 'cliff' && finding.kind !== 'throttling') continue;
    marks.push({
      phase: finding.phase,
      atBytes: finding.atBytes,
      beforeRate: finding.beforeRate,
      afterRate: finding.afterRate,
      label:
        finding.cause === 'thermal' || finding.kind === 'throttling' ? 'Throttling' : 'Cache cliff',
    });
  }
  return marks;
}

/** A queue-depth run's samples as rate over time. */
export function queueRunSeries(run: Pick<QueueRunResult, 'samples'>): Point[] {
  return run.samples.map((s) => ({ x: s.t, y: s.bytesPerSecond }));
}
