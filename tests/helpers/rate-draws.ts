/**
 * Model drives drawn at random for the rate-shape property tests (tests/unit/analysis) and their
 * sweep over many seeds (scripts/sweep-rate-shape.ts): each draw is a sample stream as the
 * built-in `sustained` plan records it, with the truth the analysis is held to. Truth is what the
 * stream itself moved: a stretch's bytes over its seconds (a drive that stalls or holds writes
 * moves less than its nominal rate, and that is what it sustains).
 */
import { rateShape } from '../../app/core/analysis/rate-shape.js';
import {
  between,
  cycleRate,
  defaultTotal,
  logBetween,
  streamRate,
  sustainedStream,
  type BurstyDelivery,
  type SampleStream,
} from './synthetic-samples.js';

const GB = 1e9;
const near = (value: number, truth: number, tolerance: number) =>
  Math.abs(value / truth - 1) <= tolerance;

/** What a draw checks; null when the analysis got it right, else what it got wrong. */
export interface Draw {
  label: string;
  stream: SampleStream;
  check(): string | null;
}

/**
 * A throttle like the kernel's at a real drive's rates: writes pass at the device's own speed
 * (2–5 × the rate allowed) until a slice's allowance is spent (20 ms on an SSD's queue, 100 ms on
 * a rotational one, as blk-throttle), then wait for the next slice.
 */
function throttle(random: () => number, fastest: number): BurstyDelivery {
  return {
    deviceRate: fastest * between(random, 2, 5),
    sliceSeconds: random() < 0.5 ? 0.02 : 0.1,
    chunkBytes: 4 * 2 ** 20,
  };
}

/** Steps found against the truth: each change within `slack` bytes, each rate within 10 %. */
function checkSteps(
  stream: SampleStream,
  changes: readonly number[],
  rates: readonly number[],
  slack: (k: number) => number,
): string | null {
  const shape = rateShape(stream);
  const steps = shape?.steps;
  const found = shape?.segments
    .map((s) => `${(s.startBytes / GB).toFixed(3)} GB at ${(s.rate / 1e6).toFixed(0)} MB/s`)
    .join(', ');
  if (!steps || steps.length !== changes.length + 1)
    return `${steps?.length ?? 0} steps (${found}${shape?.throttling ? ', throttling' : ''})`;
  if (shape.throttling) return `a cache called throttling (${found})`;
  for (let k = 1; k < steps.length; k += 1)
    if (Math.abs(steps[k]!.startBytes - changes[k - 1]!) > slack(k))
      return `step ${k} at ${(steps[k]!.startBytes / GB).toFixed(3)} GB (${found})`;
  for (let k = 0; k < steps.length; k += 1)
    if (!near(steps[k]!.rate, rates[k]!, 0.1))
      return `step ${k} at ${(steps[k]!.rate / 1e6).toFixed(0)} MB/s (${found})`;
  return null;
}

/** Rates of a stream's stretches between `changes` (at its bytes), `margin` from each change. */
function stretchRates(
  stream: SampleStream,
  changes: readonly number[],
  margin: (k: number) => number,
  delivery?: BurstyDelivery,
): number[] {
  const edges = [0, ...changes, stream.bytes.at(-1)!];
  return edges.slice(1).map((end, k) => {
    const from = k === 0 ? 0 : edges[k]! + margin(k);
    const to = k === edges.length - 2 ? end : end - margin(k + 1);
    return delivery
      ? cycleRate(stream, from, to, delivery.sliceSeconds / 3)
      : streamRate(stream, from, to);
  });
}

/**
 * Steps found on a stream delivered through a throttle: a throttle changes its rate at its next
 * slice, so each change within 5 % or the bytes of one slice at the rate before (whichever is
 * more), each rate within 10 % of the stream's whole cycles away from the changes.
 */
function checkThrottledSteps(
  stream: SampleStream,
  changes: readonly number[],
  rates: readonly number[],
  delivery: BurstyDelivery,
): string | null {
  const slice = (k: number) => rates[k - 1]! * delivery.sliceSeconds;
  return checkSteps(
    stream,
    changes,
    stretchRates(stream, changes, (k) => Math.max(0.02 * changes[k - 1]!, 2 * slice(k)), delivery),
    (k) => Math.max(0.05 * changes[k - 1]!, 1.2 * slice(k)),
  );
}

/**
 * A drive with a cache of N bytes, sampled as issue 13 asks (4 a second, never coarser than a
 * thousandth of the total, or at most 20 MiB apart with `capSamples`): from a USB stick's 30 MB/s
 * to a TB5 SSD's 7 GB/s, falling by 30 % or more (at most 70-fold, not below 20 MB/s), with
 * smooth noise and stalls. N from 0.5 GB to 80 % of the total, and at least as many samples as
 * place a change within 5 % at its noise: a change is placed to within a sample or two, further
 * the noisier a sample is against the step (the error grows as (noise / step)²): 20 samples at 8 %
 * noise, more at up to 15 %.
 */
export function cliffDraw(random: () => number, capSamples = false): Draw {
  const total = defaultTotal(random);
  const cap = capSamples ? Math.min(total / 1000, 20 * 2 ** 20) : undefined;
  const before = logBetween(random, 0.03 * GB, 7 * GB);
  const after = logBetween(random, Math.max(0.02 * GB, before / 70), 0.7 * before);
  const sampleStep = Math.min(before * 0.25, cap ?? total / 1000);
  const noise = between(random, 0.02, 0.15);
  const needed = 20 * Math.max(1, (noise / 0.08) ** 2);
  const low = Math.max(0.5 * GB, needed * sampleStep);
  const cacheBytes =
    random() < 0.5 ? between(random, low, 0.8 * total) : logBetween(random, low, 0.8 * total);
  const stream = sustainedStream({
    random,
    totalBytes: total,
    drive: (bytes) => (bytes < cacheBytes ? before : after),
    noise,
    maxSampleBytes: cap,
  });
  const label = `total ${(total / GB).toFixed(1)} GB, cache ${(cacheBytes / GB).toFixed(2)} GB, ${(before / GB).toFixed(2)} → ${(after / GB).toFixed(2)} GB/s, noise ${noise.toFixed(2)}`;
  return {
    label,
    stream,
    check: () =>
      checkSteps(
        stream,
        [cacheBytes],
        stretchRates(stream, [cacheBytes], () => 0.02 * cacheBytes),
        () => 0.05 * cacheBytes,
      ),
  };
}

/**
 * A cache that runs out in stages (static, then dynamic, then folding): three rates from 1–7 GB/s,
 * each 20–65 % of the one before, the first change at 5–50 % of the total, the second 10–40 %
 * further.
 */
export function stepsDraw(random: () => number): Draw {
  const total = defaultTotal(random);
  const rates = [logBetween(random, 1 * GB, 7 * GB)];
  rates.push(rates[0]! * between(random, 0.2, 0.6));
  rates.push(rates[1]! * between(random, 0.3, 0.65));
  const first = total * between(random, 0.05, 0.5);
  const second = first + total * between(random, 0.1, 0.4);
  const stream = sustainedStream({
    random,
    totalBytes: total,
    drive: (bytes) => rates[bytes < first ? 0 : bytes < second ? 1 : 2]!,
    noise: between(random, 0.02, 0.12),
  });
  const label = `${rates.map((r) => (r / GB).toFixed(2)).join(' → ')} GB/s after ${(first / GB).toFixed(1)} and ${(second / GB).toFixed(1)} of ${(total / GB).toFixed(1)} GB`;
  return {
    label,
    stream,
    check: () =>
      checkSteps(
        stream,
        [first, second],
        stretchRates(stream, [first, second], () => 0.02 * total),
        (k) => 0.05 * [first, second][k - 1]!,
      ),
  };
}

/**
 * A cache at a real drive's rates and sizes behind a throttle that passes chunks in bursts and
 * holds them (issue 23): 0.1–3 GB/s falling to 15–60 % (not below 20 MB/s), in one or two tiers, with a
 * pause (0.2–2 s) every 50 s on average. The cache from 0.5 GB (and eight slices of the throttle)
 * to 80 % of the run, the run set to 1.5–4 times the cache as a user would with `--total`. A
 * throttle changes its rate at its next slice, so a change is placed within 5 % or the bytes of
 * one slice at the rate before, whichever is more.
 */
export function burstyCacheDraw(random: () => number, tiers: 1 | 2 = 1, stall = false): Draw {
  const total = defaultTotal(random);
  // Never below 20 MB/s: from 0.3 GB/s when there are two tiers.
  const rates = [logBetween(random, tiers === 2 ? 0.3 * GB : 0.1 * GB, 3 * GB)];
  for (let k = 0; k < tiers; k += 1)
    rates.push(rates.at(-1)! * between(random, Math.max(0.15, (0.02 * GB) / rates.at(-1)!), 0.6));
  const delivery = throttle(random, rates[0]!);
  const low = Math.max(0.5 * GB, 8 * rates[0]! * delivery.sliceSeconds);
  const first =
    random() < 0.5 ? between(random, low, 0.4 * total) : logBetween(random, low, 0.4 * total);
  const changes = [first];
  // The middle tier lasts a second at least: a stretch under half a second between two others is
  // the drive passing from one rate to the next (rate-segments.ts, minInnerSeconds).
  if (tiers === 2)
    changes.push(
      first +
        Math.max(
          between(random, 0.3, 1) * first,
          8 * rates[1]! * delivery.sliceSeconds,
          rates[1]!,
          0.3 * GB,
        ),
    );
  const run = Math.min(total, changes.at(-1)! * between(random, 1.5, 4));
  // With `stall`, the drive pauses 0.3–1 s as each tier runs out (its first 1 MB after the change).
  const stallSeconds = changes.map(() => between(random, 0.3, 1));
  const stallBytes = 1e6;
  const stream = sustainedStream({
    random,
    totalBytes: run,
    drive: (bytes) => {
      const tier = changes.filter((c) => bytes >= c).length;
      const stalled = stall && tier > 0 && bytes < changes[tier - 1]! + stallBytes;
      return stalled ? stallBytes / stallSeconds[tier - 1]! : rates[tier]!;
    },
    delivery,
    pausesPerSecond: 0.005,
  });
  const label = `${rates.map((r) => (r / 1e6).toFixed(0)).join(' → ')} MB/s after ${changes.map((c) => (c / GB).toFixed(2)).join(' and ')} of ${(run / GB).toFixed(1)} GB, slices of ${delivery.sliceSeconds * 1000} ms at ${(delivery.deviceRate / GB).toFixed(1)} GB/s${stall ? `, stalls of ${stallSeconds.map((t) => t.toFixed(2)).join(' and ')} s` : ''}`;
  return { label, stream, check: () => checkThrottledSteps(stream, changes, rates, delivery) };
}

/**
 * A small cache on a small disk behind such a throttle (the small-disk sustained test's drive,
 * tests/e2e/cli-bench-small-disk.test.ts): 700–900 MB/s for 0.3–0.6 GB, then 150–250 MB/s, in the
 * 1.0–1.8 GB a 3 GB disk lets the plan write. The fast tier lasts 0.3–0.9 s: three to nine of a
 * 100 ms throttle's slices, the first of them passed at the device's speed before its hold.
 */
export function smallCacheDraw(random: () => number): Draw {
  const rates = [between(random, 0.7, 0.9) * GB, between(random, 0.15, 0.25) * GB];
  const cache = between(random, 0.3, 0.6) * GB;
  const run = between(random, 1, 1.8) * GB;
  // The test's loop disk passes bursts at 3.5–6 GB/s, 4–7 times the fast rate.
  const delivery = {
    ...throttle(random, rates[0]!),
    deviceRate: rates[0]! * between(random, 4, 7),
    chargeFall: true,
  };
  const stream = sustainedStream({
    random,
    totalBytes: run,
    drive: (bytes) => rates[bytes < cache ? 0 : 1]!,
    delivery,
    pausesPerSecond: 0.005,
  });
  const label = `${rates.map((r) => (r / 1e6).toFixed(0)).join(' → ')} MB/s after ${(cache / GB).toFixed(2)} of ${(run / GB).toFixed(2)} GB, slices of ${delivery.sliceSeconds * 1000} ms at ${(delivery.deviceRate / GB).toFixed(1)} GB/s`;
  return { label, stream, check: () => checkThrottledSteps(stream, [cache], rates, delivery) };
}

/**
 * A two-tier cache like burstyCacheDraw's whose fast tier the drive cannot hold steadily (a host
 * disk that drifts under a test's throttle, a drive busy with itself: the CI run of 2026-12-01
 * showed 553 → 372 → 198 MB/s under caps of 700, 432 and 205): in the fast tier, 10 s or longer, it
 * dips to 55–80 % for 0.3–2 s at a time, 15–45 % of the tier's time, spread through it (so its
 * halves do not differ by a step), the last dip ending two seconds before the change.
 * The middle tier is 35–55 % of the fast rate, the slow one 30–60 % of the middle (not below
 * 20 MB/s). Truth is each tier's bytes over its seconds, dips included: what the drive sustained.
 */
export function unsteadyCacheDraw(random: () => number): Draw {
  const total = defaultTotal(random);
  const fast = logBetween(random, 0.3 * GB, 3 * GB);
  const mid = fast * between(random, 0.35, 0.55);
  const rates = [fast, mid, Math.max(0.02 * GB, mid * between(random, 0.3, 0.6))];
  const delivery = throttle(random, fast);
  const low = Math.max(0.5 * GB, 8 * fast * delivery.sliceSeconds, 10 * fast);
  const high = Math.max(low, 0.4 * total);
  const first = random() < 0.5 ? between(random, low, high) : logBetween(random, low, high);
  const changes = [
    first,
    first +
      Math.max(between(random, 0.3, 1) * first, 8 * mid * delivery.sliceSeconds, mid, 0.3 * GB),
  ];
  const run = changes[1]! * between(random, 1.5, 4);
  // The dips, in seconds from the start: [from, to, rate] until the fast tier's time is covered.
  const dips: [number, number, number][] = [];
  const dipShare = between(random, 0.15, 0.45);
  const tierSeconds = first / fast / (1 - 0.3 * dipShare);
  for (let at = between(random, 0.5, 3); at < tierSeconds;) {
    const length = between(random, 0.3, 2);
    dips.push([at, at + length, fast * between(random, 0.55, 0.8)]);
    at += length + length * ((1 - dipShare) / dipShare) * between(random, 0.8, 1.25);
  }
  const drive = (bytes: number, seconds: number) => {
    const tier = changes.filter((c) => bytes >= c).length;
    if (tier > 0 || bytes > first - 2 * fast) return rates[tier]!;
    return dips.find(([from, to]) => seconds >= from && seconds < to)?.[2] ?? fast;
  };
  const stream = sustainedStream({
    random,
    totalBytes: run,
    drive,
    delivery,
    pausesPerSecond: 0.005,
  });
  const label = `${rates.map((r) => (r / 1e6).toFixed(0)).join(' → ')} MB/s after ${changes.map((c) => (c / GB).toFixed(2)).join(' and ')} of ${(run / GB).toFixed(1)} GB, dips ${(dipShare * 100).toFixed(0)} % of the fast tier, slices of ${delivery.sliceSeconds * 1000} ms`;
  return { label, stream, check: () => checkThrottledSteps(stream, changes, rates, delivery) };
}

/**
 * A drive that runs fast, then slows for `slowShare` of every `period` seconds, 4–12 times, each
 * slow and fast stretch at least `minStretch` seconds: with smooth noise (1.25 s: five samples at
 * 4 a second), or delivered in bursts through a throttle (2.5 s, falling to 60 % or less: a
 * quarter-second sample holds two or three of its slices, so a shorter or shallower stretch is
 * not told from how they fall).
 */
export function sawtoothDraw(random: () => number, bursty = false): Draw {
  const fast = bursty
    ? logBetween(random, 0.1 * GB, 3 * GB)
    : logBetween(random, 0.03 * GB, 7 * GB);
  const slow = fast * between(random, 0.25, bursty ? 0.6 : 0.65);
  const minStretch = bursty ? 2.5 : 1.25;
  const period = logBetween(random, 2 * minStretch + 0.5, 30);
  const slowShare = between(
    random,
    Math.max(0.2, minStretch / period),
    Math.min(0.7, 1 - minStretch / period),
  );
  const onset = between(random, 0, 3 * period);
  const cycles = Math.round(between(random, 4, 12));
  const drive = (_bytes: number, seconds: number) =>
    seconds >= onset && ((seconds - onset) / period) % 1 < slowShare ? slow : fast;
  const total = onset * fast + cycles * period * (slowShare * slow + (1 - slowShare) * fast);
  const stream = sustainedStream({
    random,
    totalBytes: total,
    drive,
    noise: between(random, 0.02, 0.12),
    delivery: bursty ? throttle(random, fast) : undefined,
  });
  const label = `${(fast / GB).toFixed(2)} GB/s slowing to ${(slow / fast).toFixed(2)} × for ${slowShare.toFixed(2)} of every ${period.toFixed(1)} s, ${cycles} times`;
  return {
    label,
    stream,
    check: () => {
      const shape = rateShape(stream);
      const throttling = shape?.throttling;
      if (!throttling) return 'no throttling';
      if (shape.steps) return 'throttling called a cache';
      if (!near(throttling.periodSeconds, period, 0.15))
        return `period ${throttling.periodSeconds.toFixed(2)} s`;
      if (Math.abs(throttling.slowShare - slowShare) >= 0.1)
        return `slow ${throttling.slowShare.toFixed(2)} of the time`;
      if (throttling.count < cycles - 1) return `${throttling.count} slow-downs`;
      return null;
    },
  };
}

/**
 * A drive at one rate, with smooth noise and stalls (1 % of samples 2–6 × slow), or delivered in
 * bursts through a throttle with pauses, written for 5–60 s.
 */
export function steadyDraw(random: () => number, bursty = false): Draw {
  const total = defaultTotal(random);
  const rate = bursty
    ? logBetween(random, 0.1 * GB, 3 * GB)
    : logBetween(random, 0.03 * GB, 7 * GB);
  const noise = between(random, 0.02, 0.15);
  const stream = sustainedStream({
    random,
    totalBytes: bursty ? Math.min(total, rate * between(random, 5, 60)) : total,
    drive: () => rate,
    noise,
    stallChance: 0.01,
    ...(bursty ? { delivery: throttle(random, rate), pausesPerSecond: 0.02 } : {}),
  });
  return {
    label: `${(rate / GB).toFixed(2)} GB/s, noise ${noise.toFixed(2)}`,
    stream,
    check: () => {
      const shape = rateShape(stream);
      if (!shape) return 'too few samples';
      if (shape.steps || shape.throttling)
        return `${shape.throttling ? 'throttling' : 'steps'}: ${shape.segments.map((s) => `${(s.startBytes / GB).toFixed(2)} GB at ${(s.rate / 1e6).toFixed(0)} MB/s`).join(', ')}`;
      return null;
    },
  };
}
