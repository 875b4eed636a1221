import { sampleIntervals, type PhaseSamples } from '../../common/phase-samples.js';
import { rateSegments } from './rate-segments.js';

/** One probe burst written after the drive was left idle. */
export interface RecoveryProbe {
  /** Seconds since the sustained writing stopped, when the probe started. */
  idleSeconds: number;
  /** Rate of the probe burst, bytes/s. */
  rate: number;
}

/**
 * Cache recovery time: the idle seconds before the first probe whose rate is back to at least
 * `fraction` (default 0.9) of the rate before the cliff. Null when no probe got there.
 */
export function recoveryTime(
  probes: readonly RecoveryProbe[],
  beforeRate: number,
  fraction = 0.9,
): number | null {
  const recovered = probes.find((probe) => probe.rate >= fraction * beforeRate);
  return recovered ? recovered.idleSeconds : null;
}

/** One probe burst written after the drive was left idle, with the samples taken inside it. */
export interface SampledProbe {
  /** Seconds since the sustained writing stopped, when the probe started. */
  idleSeconds: number;
  samples: PhaseSamples;
}

/** What the samples of one probe show. */
export interface ProbeReading {
  idleSeconds: number;
  /** Rate of the probe's first stretch at one rate, bytes/s. */
  startRate: number;
  /**
   * Bytes the probe wrote at the recovered rate before it fell (the cache that had emptied by
   * then, when the probe found it partly full); all its bytes when it never fell, 0 when it started slow.
   */
  fastBytes: number;
  /** The whole probe went at the recovered rate. */
  recovered: boolean;
}

/**
 * Cache recovery time from the probes' samples: the idle seconds before the first probe that ran at
 * least `fraction` (default 0.9) of the rate before the cliff from its start to its end, or for at
 * least `fraction` of `cacheBytes` (the cache the run found, when the probe is larger), so a probe
 * that starts fast on a partly emptied cache and falls inside does not count as recovered (its
 * rate over the whole file might). Each probe's reading says how far it got. A probe with too few
 * samples to segment is read from its bytes over its transfer time. Null when no probe got there.
 */
export function probeRecovery(
  probes: readonly SampledProbe[],
  beforeRate: number,
  fraction = 0.9,
  cacheBytes = Infinity,
): { probes: ProbeReading[]; recoverySeconds: number | null } {
  const threshold = fraction * beforeRate;
  const readings = probes.map(({ idleSeconds, samples }): ProbeReading => {
    const intervals = sampleIntervals(samples);
    const firstBytes = samples.bytes.length > 0 ? samples.bytes[0]! : 0;
    const probeBytes = intervals.totalBytes - firstBytes;
    const segments = rateSegments(samples);
    if (!segments) {
      let seconds = 0;
      for (let i = 0; i < intervals.count; i += 1) seconds += intervals.seconds[i]!;
      const rate = seconds > 0 ? probeBytes / seconds : 0;
      const fast = rate >= threshold;
      return { idleSeconds, startRate: rate, fastBytes: fast ? probeBytes : 0, recovered: fast };
    }
    const firstSlow = segments.findIndex((s) => s.rate < threshold);
    const fastBytes = firstSlow === -1 ? probeBytes : segments[firstSlow]!.startBytes - firstBytes;
    return {
      idleSeconds,
      startRate: segments[0]!.rate,
      fastBytes: Math.max(0, fastBytes),
      // Fast to its end, or fast for as long as the cache the run found (a probe larger than the
      // cache falls inside it however long the drive rested).
      recovered: firstSlow === -1 || (firstSlow > 0 && fastBytes >= fraction * cacheBytes),
    };
  });
  const recovered = readings.find((r) => r.recovered);
  return { probes: readings, recoverySeconds: recovered ? recovered.idleSeconds : null };
}
