import { sampleCorrelation } from 'simple-statistics';

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
}

export interface DropVerdict {
  cause: DropCause;
  reason: string;
}

const near = (a: number, b: number, tolerance: number) =>
  Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b));

/**
 * Cache or heat? A write cache fills after a fixed number of bytes, so its drop recurs at the same
 * cumulative bytes in every run, and comes back after idle. Thermal throttling follows temperature
 * (rate falls as the drive heats) or elapsed time. Within one run bytes and time rise together, so
 * without temperature readings, earlier runs or a recovery probe the cause cannot be told apart;
 * the verdict then says so and why.
 */
export function dropCause(evidence: DropEvidence): DropVerdict {
  const readings = evidence.files.filter(
    (f): f is typeof f & { temperatureC: number } => typeof f.temperatureC === 'number',
  );
  if (readings.length >= 5) {
    const temps = readings.map((f) => f.temperatureC);
    const rise = Math.max(...temps) - Math.min(...temps);
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
    if (rise < 3) {
      return {
        cause: 'cache',
        reason: `the drive's temperature stayed within ${rise.toFixed(1)} °C while the rate fell, so heat is not the cause: a write cache filled`,
      };
    }
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
  if (typeof evidence.recoverySeconds === 'number') {
    return {
      cause: 'cache',
      reason: `the rate came back after ${evidence.recoverySeconds.toFixed(0)} s idle, as a write cache does once it has been emptied`,
    };
  }
  return {
    cause: 'unknown',
    reason:
      'in one run bytes written and time elapsed rise together and no temperature was read, so a cache filling and a drive heating look the same; run again after the drive has rested: a cache drop recurs after the same amount written',
  };
}
