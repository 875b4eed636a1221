import { max, min, sampleCorrelation } from 'simple-statistics';

export type DropCause = 'cache' | 'thermal' | 'unknown';

/** Where a drop happened in another run of the same plan on the same drive (null: no drop). */
export interface EarlierDrop {
  atBytes: number | null;
  atSeconds: number | null;
}

export interface DropEvidence {
  atBytes: number;
  atSeconds: number | null;
  /** Per-file temperature readings of the phase (null where none was read) and rates. */
  files: readonly { temperatureC: number | null; rate: number; t?: number | null }[];
  earlier?: readonly EarlierDrop[];
  /** Idle seconds the rate took to come back, null if it did not, undefined if not probed. */
  recoverySeconds?: number | null;
  /**
   * The rate fell and came back while the transfer went on, `count` times about every
   * `periodSeconds` (from the samples; absent without them).
   */
  repeating?: { count: number; periodSeconds: number };
}

export interface DropVerdict {
  cause: DropCause;
  reason: string;
}

const near = (a: number, b: number, tolerance: number) =>
  Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b));

/**
 * Cache or heat? Temperature, where read, is the strongest evidence: a rate that falls as the drive
 * heats is thermal, a flat temperature rules heat out. Then the shape: a full write cache stays
 * slow until writing stops, so a rate that fell and came back again and again while writing went on
 * is throttling, never a cache. A cache fills after a fixed number of bytes, so a drop that recurs
 * after the same bytes in earlier runs is a cache, one that recurs after the same time is heat.
 * A rate that comes back after idle does not tell them apart (a cache empties and a drive cools
 * while it rests), and within one run bytes and time rise together; without more the verdict says
 * it cannot tell, and why.
 */
export function dropCause(evidence: DropEvidence): DropVerdict {
  const readings = evidence.files.filter(
    (f): f is typeof f & { temperatureC: number } => typeof f.temperatureC === 'number',
  );
  if (readings.length >= 5) {
    const temps = readings.map((f) => f.temperatureC);
    const rise = max(temps) - min(temps); // not Math.max(...temps): a million is too many arguments
    const correlation =
      new Set(temps).size > 1
        ? sampleCorrelation(
            temps,
            readings.map((f) => Math.log(f.rate)),
          )
        : 0;
    if (rise >= 5 && correlation <= -0.5) {
      return {
        cause: 'thermal',
        reason: `the rate fell as the drive heated by ${rise.toFixed(0)} °C (correlation ${correlation.toFixed(2)}): thermal throttling`,
      };
    }
    if (rise < 3 && evidence.repeating) {
      return {
        cause: 'unknown',
        reason: `the rate fell and came back ${evidence.repeating.count} times while writing went on, which a filled cache does not do, yet the drive's temperature stayed within ${rise.toFixed(1)} °C: throttling by something other than the drive's heat (its enclosure, link or host)`,
      };
    }
    if (rise < 3) {
      return {
        cause: 'cache',
        reason: `the drive's temperature stayed within ${rise.toFixed(1)} °C while the rate fell, so heat is not the cause: a write cache filled`,
      };
    }
  }
  if (evidence.repeating) {
    const { count, periodSeconds } = evidence.repeating;
    return {
      cause: 'thermal',
      reason: `the rate fell and came back ${count} times while writing went on, about every ${periodSeconds.toFixed(0)} s: a full write cache stays slow until writing stops, so this is throttling, as a drive does when it runs hot`,
    };
  }
  const earlier = (evidence.earlier ?? []).filter((d) => d.atBytes !== null);
  if (earlier.length > 0) {
    if (earlier.every((d) => near(d.atBytes!, evidence.atBytes, 0.1))) {
      return {
        cause: 'cache',
        reason: `the drop recurs after the same amount written in ${earlier.length + 1} runs: a write cache of about that size`,
      };
    }
    const atSeconds = evidence.atSeconds;
    if (
      atSeconds !== null &&
      earlier.every((d) => d.atSeconds !== null && near(d.atSeconds, atSeconds, 0.1))
    ) {
      return {
        cause: 'thermal',
        reason:
          'the drop recurs after the same time writing but not after the same amount: thermal throttling',
      };
    }
  }
  const idle =
    typeof evidence.recoverySeconds === 'number'
      ? `the rate came back after ${evidence.recoverySeconds.toFixed(0)} s idle, but a cache empties and a drive cools while it rests, so that alone does not tell them apart; `
      : '';
  return {
    cause: 'unknown',
    reason: `${idle}in one run bytes written and time elapsed rise together and no temperature was read, so a cache filling and a drive heating look the same; run again after the drive has rested: a cache drop recurs after the same amount written`,
  };
}
