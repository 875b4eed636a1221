/**
 * The one headline rate per direction of a run: the figure the result page, the history, the
 * compare view, the CLI summary and the PDF all show, computed here and nowhere else.
 *
 * The rule:
 * - A run of files: all the bytes ÷ all the seconds of the phase's files of `driveRateMinBytes`
 *   (2 MB) or more. Smaller files are what Plumb itself calls "not the drive's speed" (fixed costs
 *   and caches dominate them), so they never set the headline; time-weighting lets the large files,
 *   which spend the most time on the drive, weigh the most, and is the rate a copy of those files
 *   would see. A run with no such file has no headline (null), not a small-file figure.
 * - With a cache cliff the headline stays the whole phase's rate (in the cache and after it
 *   together); the rate after the cliff is the cliff finding's, not the headline.
 * - A paired run: the files the run's own folder (target a) moved alone.
 * - A queue-depth grid (no files): the fastest sequential run of the direction, else the fastest
 *   random one.
 *
 * Pure and structural (app/common imports nothing), so core, CLI and renderer share it.
 */

/** Files under this size show rates that mean little on fast SSDs (DESIGN.md). */
export const driveRateMinBytes = 2_000_000;

type Direction = 'write' | 'read';

export interface HeadlineFile {
  phase: Direction;
  bytes: number;
  seconds: number;
  target?: string;
  stage?: string;
}

export interface HeadlineQueueRun {
  name: string;
  op: string;
  bytesPerSecond: number;
}

export interface HeadlineSource {
  files: readonly HeadlineFile[];
  runs?: readonly HeadlineQueueRun[];
}

export interface Headline {
  /** Bytes per second; null when the run has nothing that can set it. */
  rate: number | null;
  /** What set it, in a few words for a caption ("files of 2 MB or more", "SEQ1M Q8T1 read"). */
  basis: string;
}

const sequentialOp: Record<Direction, string> = { write: 'write', read: 'read' };
const randomOp: Record<Direction, string> = { write: 'randwrite', read: 'randread' };

function fromQueueRuns(runs: readonly HeadlineQueueRun[], phase: Direction): Headline {
  for (const op of [sequentialOp[phase], randomOp[phase]]) {
    const best = runs
      .filter((r) => r.op === op && Number.isFinite(r.bytesPerSecond))
      .reduce<HeadlineQueueRun | null>(
        (top, r) => (!top || r.bytesPerSecond > top.bytesPerSecond ? r : top),
        null,
      );
    if (best) return { rate: best.bytesPerSecond, basis: best.name };
  }
  return { rate: null, basis: `no ${phase} run` };
}

/** The headline rate of one direction, and what set it. */
export function headline(source: HeadlineSource, phase: Direction): Headline {
  if (source.files.length === 0 && source.runs?.length) return fromQueueRuns(source.runs, phase);
  const paired = source.files.some((f) => f.target !== undefined);
  const own = source.files.filter(
    (f) => f.phase === phase && (!paired || (f.target === 'a' && f.stage !== 'together')),
  );
  let bytes = 0;
  let seconds = 0;
  let count = 0;
  for (const file of own) {
    if (file.bytes < driveRateMinBytes || !(file.seconds > 0)) continue;
    bytes += file.bytes;
    seconds += file.seconds;
    count += 1;
  }
  if (count === 0) {
    return {
      rate: null,
      basis: own.length ? `no ${phase} file of 2 MB or more` : `no ${phase} files`,
    };
  }
  const whose = paired ? 'folder A alone, ' : '';
  return {
    rate: bytes / seconds,
    basis: `${whose}${count} ${count === 1 ? 'file' : 'files'} of 2 MB or more`,
  };
}

/** Both directions' headline rates (bytes/s or null). */
export function headlineRates(source: HeadlineSource): {
  write: number | null;
  read: number | null;
} {
  return { write: headline(source, 'write').rate, read: headline(source, 'read').rate };
}
