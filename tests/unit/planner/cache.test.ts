import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  burstSeries,
  burstTiming,
  effectiveCacheBytes,
  recoveredCacheBytes,
} from '../../../app/core/planner/cache.js';
import { builtInCatalogue } from '../../../app/core/planner/catalogue.js';

const rules = builtInCatalogue().rules;
const tb5 = { inCacheBytesPerSecond: 5.5e9, afterCacheBytesPerSecond: 1.4e9 };
const tb5Cache = { cacheKind: 'dynamic-tlc' as const, cacheBytes: 50e9 };

test('a burst smaller than the cache is written entirely at the in-cache rate', () => {
  const timing = burstTiming(20e9, 50e9, tb5);
  assert.equal(timing.inCacheBytes, 20e9);
  assert.equal(timing.afterCacheBytes, 0);
  assert.ok(Math.abs(timing.seconds - 20 / 5.5) < 1e-12);
});

test('with no cliff (null cache) every byte goes at the in-cache rate', () => {
  const timing = burstTiming(300e9, null, {
    inCacheBytesPerSecond: 3.7e9,
    afterCacheBytesPerSecond: 1,
  });
  assert.ok(Math.abs(timing.seconds - 300 / 3.7) < 1e-9);
});

test('a nearly full disk shrinks a dynamic cache to free ÷ 3 (TLC) or ÷ 4 (QLC)', () => {
  assert.equal(effectiveCacheBytes(tb5Cache, 1.7e12, rules), 50e9);
  assert.equal(effectiveCacheBytes(tb5Cache, 60e9, rules), 20e9);
  assert.equal(
    effectiveCacheBytes({ cacheKind: 'dynamic-qlc', cacheBytes: 250e9 }, 400e9, rules),
    100e9,
  );
  assert.equal(effectiveCacheBytes(tb5Cache, -5, rules), 0);
  // A thermal limit and a fixed cache do not depend on free space; "none" has no cliff.
  assert.equal(
    effectiveCacheBytes({ cacheKind: 'thermal', cacheBytes: 23.9e9 }, 10e9, rules),
    23.9e9,
  );
  assert.equal(effectiveCacheBytes({ cacheKind: 'none', cacheBytes: null }, 10e9, rules), null);
  // 100 GB to the TB5 SSD with only 60 GB... of cache headroom: 20 GB fast, 80 GB slow.
  const timing = burstTiming(100e9, effectiveCacheBytes(tb5Cache, 60e9, rules), tb5);
  assert.ok(Math.abs(timing.seconds - (20 / 5.5 + 80 / 1.4)) < 1e-9);
});

test('recovery: a full cache empties over its recovery time, linearly; unknown means none', () => {
  assert.equal(recoveredCacheBytes(0, 50e9, 120, 240), 25e9);
  assert.equal(recoveredCacheBytes(10e9, 50e9, 1000, 240), 50e9);
  assert.equal(recoveredCacheBytes(10e9, 50e9, 1000, null), 10e9);
  assert.equal(recoveredCacheBytes(10e9, 50e9, 0, 0), 50e9);
});

test('no recovery time between bursts: the second burst finds the cache already used', () => {
  const series = burstSeries({
    bytes: 40e9,
    repeat: 2,
    gapSeconds: 0,
    freeBytes: 1.7e12,
    rates: tb5,
    recoverySeconds: 240,
    cacheAt: (free) => effectiveCacheBytes(tb5Cache, free, rules),
  });
  assert.equal(series[0]!.inCacheBytes, 40e9);
  assert.equal(series[1]!.inCacheBytes, 10e9);
  assert.equal(series[1]!.afterCacheBytes, 30e9);
  assert.ok(series[1]!.seconds > series[0]!.seconds);
});

test('a four-minute gap lets the TB5 cache recover fully before the next burst', () => {
  const series = burstSeries({
    bytes: 50e9,
    repeat: 3,
    gapSeconds: 240,
    freeBytes: 1.7e12,
    rates: tb5,
    recoverySeconds: 240,
    cacheAt: (free) => effectiveCacheBytes(tb5Cache, free, rules),
  });
  for (const timing of series) assert.equal(timing.inCacheBytes, 50e9);
});

test('repeats fill the disk, and the cache shrinks with it', () => {
  const series = burstSeries({
    bytes: 30e9,
    repeat: 3,
    gapSeconds: 10_000,
    freeBytes: 120e9,
    rates: tb5,
    recoverySeconds: 240,
    cacheAt: (free) => effectiveCacheBytes(tb5Cache, free, rules),
  });
  assert.deepEqual(
    series.map((t) => Math.round(t.inCacheBytes / 1e9)),
    [30, 30, 20],
  );
});
