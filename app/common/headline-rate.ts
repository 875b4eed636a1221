/**
 * The one headline rate per direction of a run, as every front end reads it: the result page,
 * the history, the compare view, the CLI summary and the PDF all show `document.headline`, which
 * core computes once (app/core/analysis/headline-rate.ts, where the rule is) and stores in the
 * result, filling it in for documents saved before it existed when they are read.
 *
 * Structural and pure (app/common imports nothing outside it), so the renderer can read it too.
 */
import { formatRate } from './format.js';

/** Files under this size show rates that mean little on fast SSDs (DESIGN.md). */
export const driveRateMinBytes = 2_000_000;

export type Direction = 'write' | 'read';

export interface Headline {
  /** Bytes per second; null when the run has nothing that can set it. */
  rate: number | null;
  /** What set it, in a few words for a caption ("steady rate of 40 files of 2 MB or more"). */
  basis: string;
}

/** A document with (or, from before, without) its stored headline. */
export interface HeadlineHolder {
  headline?: Partial<Record<Direction, Headline>>;
}

const notComputed: Headline = { rate: null, basis: 'not computed' };

/** The stored headline of one direction. */
export function headline(document: HeadlineHolder, phase: Direction): Headline {
  return document.headline?.[phase] ?? notComputed;
}

/** Both directions' headline rates (bytes/s or null). */
export function headlineRates(document: HeadlineHolder): {
  write: number | null;
  read: number | null;
} {
  return { write: headline(document, 'write').rate, read: headline(document, 'read').rate };
}

/**
 * The headline rates in words, as the CLI summary, the CSV export and the PDF say them: "write
 * 560 MB/s (steady rate of 54 files of 2 MB or more), read 1.20 GB/s (…)"; empty when neither
 * direction has one.
 */
export function headlineWords(document: HeadlineHolder): string {
  return (['write', 'read'] as const)
    .map((phase) => ({ phase, ...headline(document, phase) }))
    .filter((h) => h.rate !== null)
    .map((h) => `${h.phase} ${formatRate(h.rate)} (${h.basis})`)
    .join(', ');
}
