/**
 * Chart series built from file records and findings: pure, so the charts only draw. Rates are
 * bytes/s, sizes bytes; points are sorted by x because line charts and decimation expect it.
 */
import type {
  FileRecord,
  Finding,
  Phase,
  QueueRunResult,
  ResultDocument,
} from '../../../../app/contract/bench-result.js';
import { decimateMinMax } from '../../../../app/common/decimate.js';
import { storedRateCurve } from '../../../../app/common/sample-rates.js';

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

export interface CumulativeCurve {
  points: Point[];
  /** Drawn from samples: joined by a line. */
  line?: boolean;
  /** Rate points behind the drawn ones (the samples' intervals); absent for per-file points. */
  samples?: number;
}

/**
 * Rate against the phase's cumulative bytes: from the stored samples, windowed as the live chart
 * windows them (app/common/sample-rates.ts; each rate at the bytes so far when it was taken) and
 * thinned to at most 2 × `buckets` points for drawing; per file otherwise (and when the stored
 * samples cannot be read).
 */
export function cumulativeCurve(
  document: ResultDocument,
  phase: Phase,
  buckets = 800,
): CumulativeCurve {
  // Samples as `plumb.result/2` keeps them (columns t, bytes, file); a version 1 document has none.
  const curve = storedRateCurve(document.samplesByPhase?.[phase]);
  if (curve) {
    const thin = decimateMinMax(curve.endBytes, curve.rate, buckets);
    const points = Array.from(thin.x, (x, i) => ({ x, y: thin.y[i]! }));
    return { points, line: true, samples: curve.rate.length };
  }
  return { points: rateByCumulative(document.files, phase) };
}

/**
 * The title and caption of the chart against cumulative bytes, in the words of the phases it
 * draws: a run that only read (`plumb read`) wrote nothing, and its drops are no write cache.
 */
export function cumulativeChartWords(phases: readonly Phase[]): { title: string; caption: string } {
  const writes = phases.includes('write');
  const reads = phases.includes('read');
  if (reads && !writes)
    return {
      title: 'Rate against data read',
      caption: 'A step down shows where reads stopped coming from a cache, or the drive throttled.',
    };
  return {
    title: reads ? 'Rate against data written and read' : 'Rate against data written',
    caption: 'A step down shows where a write cache ran out or the drive throttled.',
  };
}

/** Rate against file size (for a log axis): the curve that rises to a plateau. */
export function rateBySize(files: readonly FileRecord[], phase: Phase): Point[] {
  return points(files, phase, (f) => f.bytes);
}

/**
 * Points thinned for drawing by the one decimator (app/common/decimate.ts): at most two points,
 * the lowest and the highest rate, per slice of equal width (on a log axis with `log`, where
 * chart.js's own decimation does not work). Fewer points than 2 × buckets come back unchanged.
 */
export function thinPoints(sorted: readonly Point[], buckets: number, log = false): Point[] {
  if (sorted.length <= 2 * buckets && !log) return [...sorted];
  const x = Float64Array.from(sorted, (p) => p.x);
  const y = Float64Array.from(sorted, (p) => p.y);
  const thin = decimateMinMax(x, y, buckets, { log });
  return Array.from(thin.x, (value, i) => ({ x: value, y: thin.y[i]! }));
}

export interface DecimationChoice {
  enabled: boolean;
  /** Draw dots only while they can be told apart. */
  pointRadius: number;
}

/** Dots for a few hundred files; thinned (min and max per slice), small dots for thousands. */
export function decimationFor(pointCount: number): DecimationChoice {
  if (pointCount > 2000) return { enabled: true, pointRadius: 0 };
  if (pointCount > 400) return { enabled: true, pointRadius: 1.5 };
  return { enabled: false, pointRadius: 2.5 };
}

export interface CeilingMark {
  rate: number;
  /** What the line is, as the chart labels it ("USB 3.2 Gen 2 ceiling"). */
  label: string;
}

/**
 * The interface ceiling a finding names (the lowest, if several), labelled by the ceiling the
 * result records when it is that one ("USB 3.2 Gen 2 ceiling", "fastest SSD known").
 */
export function ceilingOf(
  document: Pick<ResultDocument, 'findings'> & {
    environment: Pick<ResultDocument['environment'], 'ceiling'>;
  },
): CeilingMark | null {
  const recorded = document.environment.ceiling;
  let mark: CeilingMark | null = null;
  for (const finding of document.findings) {
    if (finding.kind !== 'exceeds-interface') continue;
    if (!mark || finding.ceilingRate < mark.rate) {
      const name = recorded?.id === finding.interface ? recorded.label : finding.interface;
      mark = {
        rate: finding.ceilingRate,
        label: finding.interface === 'any-ssd' ? 'fastest SSD known' : `${name} ceiling`,
      };
    }
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

interface StepOfDrop {
  atBytes: number;
  rate: number;
}

/** The steps a finding found on samples (the first at the start), when it has more than one drop. */
function stepsOf(finding: Finding): StepOfDrop[] | null {
  const steps = (finding as { steps?: unknown }).steps;
  if (!Array.isArray(steps) || steps.length < 3) return null;
  const valid = steps.every(
    (s: Partial<StepOfDrop> | null) => typeof s?.atBytes === 'number' && typeof s.rate === 'number',
  );
  return valid ? (steps as StepOfDrop[]) : null;
}

/**
 * Where the chart marks a drop: the place each cliff or throttling finding gives, and every step
 * of a rate that fell more than once (a static cache, then a dynamic one, then folding).
 */
export function cliffMarks(findings: readonly Finding[]): CliffMark[] {
  const marks: CliffMark[] = [];
  for (const finding of findings) {
    if (finding.kind !== 'cliff' && finding.kind !== 'throttling') continue;
    const label =
      finding.cause === 'thermal' || finding.kind === 'throttling' ? 'Throttling' : 'Cache cliff';
    const steps = finding.kind === 'cliff' ? stepsOf(finding) : null;
    if (steps) {
      for (let k = 1; k < steps.length; k += 1)
        marks.push({
          phase: finding.phase,
          atBytes: steps[k]!.atBytes,
          beforeRate: steps[k - 1]!.rate,
          afterRate: steps[k]!.rate,
          label: k === 1 ? label : 'Slower again',
        });
      continue;
    }
    marks.push({
      phase: finding.phase,
      atBytes: finding.atBytes,
      beforeRate: finding.beforeRate,
      afterRate: finding.afterRate,
      label,
    });
  }
  return marks;
}

/** A queue-depth run's samples as rate over time. */
export function queueRunSeries(run: Pick<QueueRunResult, 'samples'>): Point[] {
  return run.samples.map((s) => ({ x: s.t, y: s.bytesPerSecond }));
}
