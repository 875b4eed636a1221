import { max, min, sampleCorrelation } from 'simple-statistics';

export type DropCause = 'cache' | 'thermal' | 'unknown';

/** Where a drop happened in another run of the same plan on the same drive (null: no drop). */
export interface EarlierDrop {
  atBytes: number | null;
  atSeconds: number | null;
}

export interface DropEvidence {
  /** The phase the drop is in: its words ("written", "read") and what a cache does in it differ. */
  phase: 'write' | 'read';
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
  /** Why the cause is thought so, in whole sentences: shown one step away from the finding. */
  reason: string;
}

const near = (a: number, b: number, tolerance: number) =>
  Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b));

/** The words of a phase: bytes "written" while "writing" went on, or "read" while "reading". */
const phaseWords = {
  write: { moved: 'written', moving: 'writing', cache: 'a write cache filled' },
  read: {
    moved: 'read',
    moving: 'reading',
    cache: 'the first part came from a faster place (a cache) than the rest',
  },
} as const;

/**
 * Cache or heat? Temperature, where read, is the strongest evidence: a rate that falls as the drive
 * heats is thermal, a flat temperature rules heat out. Then the shape: a full write cache stays
 * slow until writing stops, so a rate that fell and came back again and again while the phase went
 * on is throttling, never a cache. A cache runs out after a fixed number of bytes, so a drop that
 * recurs after the same bytes in earlier runs is a cache, one that recurs after the same time is
 * heat. A rate that comes back after idle does not tell them apart (a cache empties and a drive
 * cools while it rests), and within one run bytes and time rise together; without more the verdict
 * says it cannot tell, and why.
 */
export function dropCause(evidence: DropEvidence): DropVerdict {
  const words = phaseWords[evidence.phase];
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
        reason: `The rate fell as the drive heated by ${rise.toFixed(0)} °C (correlation ${correlation.toFixed(2)}): thermal throttling.`,
      };
    }
    if (rise < 3 && evidence.repeating) {
      return {
        cause: 'unknown',
        reason: `The rate fell and came back ${evidence.repeating.count} times while ${words.moving} went on, which a cache running out does not do, yet the drive's temperature stayed within ${rise.toFixed(1)} °C: throttling by something other than the drive's heat (its enclosure, link or host).`,
      };
    }
    if (rise < 3) {
      return {
        cause: 'cache',
        reason: `The drive's temperature stayed within ${rise.toFixed(1)} °C while the rate fell, so heat is not the cause: ${words.cache}.`,
      };
    }
  }
  if (evidence.repeating) {
    const { count, periodSeconds } = evidence.repeating;
    const cacheStaysSlow =
      evidence.phase === 'write'
        ? 'a full write cache stays slow until writing stops, so this is throttling, as a drive does when it runs hot'
        : 'a cache that ran out does not come back while reading goes on, so this is throttling, as a drive does when it runs hot';
    return {
      cause: 'thermal',
      reason: `The rate fell and came back ${count} times while ${words.moving} went on, about every ${periodSeconds.toFixed(0)} s: ${cacheStaysSlow}.`,
    };
  }
  const earlier = (evidence.earlier ?? []).filter((d) => d.atBytes !== null);
  if (earlier.length > 0) {
    if (earlier.every((d) => near(d.atBytes!, evidence.atBytes, 0.1))) {
      return {
        cause: 'cache',
        reason: `The drop recurs after the same amount ${words.moved} in ${earlier.length + 1} runs: a ${evidence.phase === 'write' ? 'write ' : ''}cache of about that size.`,
      };
    }
    const atSeconds = evidence.atSeconds;
    if (
      atSeconds !== null &&
      earlier.every((d) => d.atSeconds !== null && near(d.atSeconds, atSeconds, 0.1))
    ) {
      return {
        cause: 'thermal',
        reason: `The drop recurs after the same time ${words.moving} but not after the same amount ${words.moved}: thermal throttling.`,
      };
    }
  }
  const idle =
    typeof evidence.recoverySeconds === 'number'
      ? `The rate came back after ${evidence.recoverySeconds.toFixed(0)} s idle, but a cache empties and a drive cools while it rests, so that alone does not tell them apart. `
      : '';
  return {
    cause: 'unknown',
    reason: `${idle}In one run the bytes ${words.moved} and the time elapsed rise together and no temperature was taken, so a cache running out and a drive heating look the same. Run again after the drive has rested: a cache drop recurs after the same amount ${words.moved}.`,
  };
}
