/**
 * The rule for the one headline rate per direction of a run (read everywhere through
 * app/common/headline-rate.ts):
 * - A run of files: the steady rate of the phase's files of 2 MB or more, the Theil–Sen slope of
 *   their seconds against their bytes (bytes/s, without the fixed cost each file pays to open,
 *   flush and close). Files under 2 MB are what Plumb itself calls "not the drive's speed", so
 *   they never set it. A run with no such file has no headline (null), never a small-file figure.
 * - It is all their bytes over all their seconds instead (the rate of the whole phase, which lies
 *   between the slowest and the fastest of its files) when a slope does not describe them: their
 *   sizes span less than a factor of 2 (the paired and task plans use one size); the fitted fixed
 *   cost is negative (time did not grow with size at one rate, as when later, larger files ran
 *   slower); the slope lies more than 10 % outside the rates the files had (a fixed cost as long
 *   as the largest file's transfer: the slope is then a rate no file reached); or the rate changed
 *   while the phase went on (a cache cliff or throttling was found: the rate after the cliff is
 *   the finding's, not the headline).
 * - A paired run: the files the run's own folder (target a) moved alone.
 * - A queue-depth grid (no files): the fastest sequential run of the direction, else the fastest
 *   random one.
 */
import { max, min } from 'simple-statistics';
import {
  driveRateMinBytes,
  type Direction,
  type Headline,
  type HeadlineHolder,
} from '../../common/headline-rate.js';
import { aggregateRate } from './aggregate-rate.js';
import { lineRate } from './line-rate.js';
import { theilSenOf } from './theil-sen.js';

export interface HeadlineSource {
  /** The run's findings: a cliff or throttling in a phase makes its headline the whole phase's rate. */
  findings?: readonly { kind: string; phase: Direction | null }[];
  files: readonly {
    phase: Direction;
    bytes: number;
    seconds: number;
    target?: string;
    stage?: string;
  }[];
  runs?: readonly { name: string; op: string; bytesPerSecond: number }[];
}

/** Sizes must span this factor for a slope to be read from them. */
const slopeSpan = 2;
/** How far outside its files' rates a slope may lie and still be the headline. */
const headlineRateTolerance = 0.1;

/** The slowest and the fastest rate of the files (bytes/s). */
function rateRange(files: readonly { bytes: number; seconds: number }[]): {
  slowest: number;
  fastest: number;
} {
  const rates = files.map((f) => f.bytes / f.seconds);
  return { slowest: min(rates), fastest: max(rates) };
}

function fromQueueRuns(runs: NonNullable<HeadlineSource['runs']>, phase: Direction): Headline {
  for (const op of phase === 'write' ? ['write', 'randwrite'] : ['read', 'randread']) {
    const mine = runs.filter((r) => r.op === op && Number.isFinite(r.bytesPerSecond));
    if (mine.length === 0) continue;
    const best = mine.reduce((top, r) => (r.bytesPerSecond > top.bytesPerSecond ? r : top));
    return { rate: best.bytesPerSecond, basis: best.name };
  }
  return { rate: null, basis: `no ${phase} run` };
}

/** The headline of one direction, by the rule above. */
export function computeHeadline(source: HeadlineSource, phase: Direction): Headline {
  if (source.files.length === 0 && source.runs?.length) return fromQueueRuns(source.runs, phase);
  const paired = source.files.some((f) => f.target !== undefined);
  const own = source.files.filter(
    (f) => f.phase === phase && (!paired || (f.target === 'a' && f.stage !== 'together')),
  );
  const large = own.filter((f) => f.bytes >= driveRateMinBytes && f.seconds > 0);
  if (large.length === 0) {
    return {
      rate: null,
      basis: own.length ? `no ${phase} file of 2 MB or more` : `no ${phase} files`,
    };
  }
  const whose = paired ? 'folder A alone, ' : '';
  const files = `${large.length} ${large.length === 1 ? 'file' : 'files'} of 2 MB or more`;
  const changed = source.findings?.some(
    (f) => f.phase === phase && (f.kind === 'cliff' || f.kind === 'throttling'),
  );
  if (changed) return { rate: aggregateRate(large), basis: `${whose}${files}, the whole phase` };
  const sizes = large.map((f) => f.bytes);
  if (max(sizes) >= slopeSpan * min(sizes)) {
    const line = lineRate(
      theilSenOf(
        Float64Array.from(large, (f) => f.bytes),
        Float64Array.from(large, (f) => f.seconds),
      ),
    );
    const { slowest, fastest } = rateRange(large);
    const withinRates =
      line.rate !== null &&
      line.rate >= (1 - headlineRateTolerance) * slowest &&
      line.rate <= (1 + headlineRateTolerance) * fastest;
    if (withinRates && line.latency !== null && line.latency >= 0)
      return { rate: line.rate, basis: `${whose}steady rate of ${files}` };
  }
  return { rate: aggregateRate(large), basis: `${whose}${files}` };
}

/** The document with its headline (computed when it has none: results saved before it). */
export function withHeadline<T extends HeadlineSource & HeadlineHolder>(
  document: T,
): T & { headline: Record<Direction, Headline> } {
  if (document.headline?.write && document.headline.read)
    return document as T & { headline: Record<Direction, Headline> };
  return {
    ...document,
    headline: {
      write: computeHeadline(document, 'write'),
      read: computeHeadline(document, 'read'),
    },
  };
}
