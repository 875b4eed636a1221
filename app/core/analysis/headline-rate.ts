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
import {
  driveRateMinBytes,
  type Direction,
  type Headline,
  type HeadlineHolder,
} from '../../common/headline-rate.js';
import { aggregateRateOf } from './aggregate-rate.js';
import { lineRate } from './line-rate.js';
import { theilSenOf } from './theil-sen.js';
import {
  columnRates,
  selectRows,
  transferColumns,
  type TransferColumns,
} from './transfer-columns.js';

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

/** The smallest and the largest of the values. */
function range(values: Float64Array): { least: number; most: number } {
  let [least, most] = [values[0]!, values[0]!];
  for (const value of values) [least, most] = [Math.min(least, value), Math.max(most, value)];
  return { least, most };
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

/** Whether a cliff or throttling was found in the phase (its headline is then the whole phase's). */
export function rateChanged(findings: NonNullable<HeadlineSource['findings']>, phase: Direction) {
  return findings.some((f) => f.phase === phase && (f.kind === 'cliff' || f.kind === 'throttling'));
}

/** The headline of one direction, by the rule above. */
export function computeHeadline(source: HeadlineSource, phase: Direction): Headline {
  if (source.files.length === 0 && source.runs?.length) return fromQueueRuns(source.runs, phase);
  const paired = source.files.some((f) => f.target !== undefined);
  const own = source.files.filter(
    (f) => f.phase === phase && (!paired || (f.target === 'a' && f.stage !== 'together')),
  );
  const changed = source.findings?.some(
    (f) => f.phase === phase && (f.kind === 'cliff' || f.kind === 'throttling'),
  );
  return filesHeadline(
    transferColumns(own),
    phase,
    changed === true,
    paired ? 'folder A alone, ' : '',
  );
}

/**
 * The headline of one direction from the files that may set it (`own`, as columns), by the rule
 * above; `changed` when a cliff or throttling was found in the phase, `whose` leads the basis.
 */
export function filesHeadline(
  own: TransferColumns,
  phase: Direction,
  changed: boolean,
  whose = '',
): Headline {
  const large = selectRows(own, (i) => own.bytes[i]! >= driveRateMinBytes && own.seconds[i]! > 0);
  const count = large.bytes.length;
  if (count === 0) {
    return {
      rate: null,
      basis: own.bytes.length ? `no ${phase} file of 2 MB or more` : `no ${phase} files`,
    };
  }
  const files = `${count} ${count === 1 ? 'file' : 'files'} of 2 MB or more`;
  if (changed) return { rate: aggregateRateOf(large), basis: `${whose}${files}, the whole phase` };
  const sizes = range(large.bytes);
  if (sizes.most >= slopeSpan * sizes.least) {
    const line = lineRate(theilSenOf(large.bytes, large.seconds));
    const rates = range(columnRates(large));
    const withinRates =
      line.rate !== null &&
      line.rate >= (1 - headlineRateTolerance) * rates.least &&
      line.rate <= (1 + headlineRateTolerance) * rates.most;
    if (withinRates && line.latency !== null && line.latency >= 0)
      return { rate: line.rate, basis: `${whose}steady rate of ${files}` };
  }
  return { rate: aggregateRateOf(large), basis: `${whose}${files}` };
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
