/**
 * The SLC write cache model of seed 003: a burst is written at the in-cache rate until the cache
 * available at that fill level is used up, then at the after-cache rate; an idle cache empties
 * (recovers) in its recovery time. The cache cannot empty while it is being written at full speed.
 */
import type { CacheKind, PlannerRules } from '../../contract/planner.js';

export interface CacheProfile {
  cacheKind: CacheKind;
  /** Cache size on an empty drive, or bytes written before a thermal throttle. */
  cacheBytes: number | null;
}

/**
 * The cache a drive can offer with `freeBytes` free: a dynamic SLC cache is at most free ÷ 3 on
 * TLC or free ÷ 4 on QLC; fixed and thermal limits do not depend on free space. Null: no cliff.
 */
export function effectiveCacheBytes(
  profile: CacheProfile,
  freeBytes: number,
  rules: Pick<PlannerRules, 'dynamicCacheDivisorTlc' | 'dynamicCacheDivisorQlc'>,
): number | null {
  if (profile.cacheKind === 'none' || profile.cacheBytes === null) return null;
  const free = Math.max(0, freeBytes);
  if (profile.cacheKind === 'dynamic-tlc') {
    return Math.min(profile.cacheBytes, free / rules.dynamicCacheDivisorTlc.value);
  }
  if (profile.cacheKind === 'dynamic-qlc') {
    return Math.min(profile.cacheBytes, free / rules.dynamicCacheDivisorQlc.value);
  }
  return profile.cacheBytes;
}

export interface WriteRates {
  inCacheBytesPerSecond: number;
  afterCacheBytesPerSecond: number;
}

export interface BurstTiming {
  seconds: number;
  inCacheBytes: number;
  afterCacheBytes: number;
}

/** Seconds to write `bytes` with `availableCacheBytes` of cache left (null: no cliff). */
export function burstTiming(
  bytes: number,
  availableCacheBytes: number | null,
  rates: WriteRates,
): BurstTiming {
  const inCacheBytes = availableCacheBytes === null ? bytes : Math.min(bytes, availableCacheBytes);
  const afterCacheBytes = bytes - inCacheBytes;
  return {
    seconds:
      inCacheBytes / rates.inCacheBytesPerSecond + afterCacheBytes / rates.afterCacheBytesPerSecond,
    inCacheBytes,
    afterCacheBytes,
  };
}

/**
 * Cache available after an idle gap: a full cache empties linearly over `recoverySeconds`.
 * When the recovery time is unknown, no recovery is assumed (the cautious reading).
 */
export function recoveredCacheBytes(
  availableBytes: number,
  fullCacheBytes: number,
  gapSeconds: number,
  recoverySeconds: number | null,
): number {
  if (recoverySeconds === null) return availableBytes;
  if (recoverySeconds === 0) return fullCacheBytes;
  const recovered = (fullCacheBytes * gapSeconds) / recoverySeconds;
  return Math.min(fullCacheBytes, availableBytes + recovered);
}

export interface BurstSeriesInput {
  bytes: number;
  repeat: number;
  gapSeconds: number;
  /** Free space on the drive before the first burst. */
  freeBytes: number;
  rates: WriteRates;
  recoverySeconds: number | null;
  /** The cache the drive offers at a given free space (see effectiveCacheBytes). */
  cacheAt: (freeBytes: number) => number | null;
}

/**
 * A burst repeated `repeat` times with idle gaps: each repeat starts with what is left of the cache
 * plus what recovered in the gap, never more than the drive can offer at its new fill level.
 */
export function burstSeries(input: BurstSeriesInput): BurstTiming[] {
  const timings: BurstTiming[] = [];
  let free = input.freeBytes;
  let full = input.cacheAt(free);
  let available = full;
  for (let index = 0; index < input.repeat; index += 1) {
    if (index > 0 && available !== null && full !== null) {
      available = recoveredCacheBytes(available, full, input.gapSeconds, input.recoverySeconds);
      available = Math.min(available, full);
    }
    const timing = burstTiming(input.bytes, available, input.rates);
    timings.push(timing);
    if (available !== null) available -= timing.inCacheBytes;
    free -= input.bytes;
    full = input.cacheAt(free);
  }
  return timings;
}
