import type { FilesPlan } from '../../contract/bench.js';
import { toBlocks } from '../../common/run-sizes.js';
import { seededRandom, shuffled } from './seeded-random.js';

export { sizeQuantum, toBlocks } from '../../common/run-sizes.js';

/**
 * `count` sizes evenly spaced on a log scale from `minBytes` to `maxBytes` inclusive (each the
 * previous times a constant ratio), rounded to whole blocks.
 */
export function logUniformSizes(count: number, minBytes: number, maxBytes: number): number[] {
  if (count === 1) return [toBlocks(minBytes)];
  const ratio = Math.log(maxBytes / minBytes) / (count - 1);
  return Array.from({ length: count }, (_, i) => toBlocks(minBytes * Math.exp(ratio * i)));
}

/** A size drawn log-uniformly between the bounds, rounded to whole blocks. */
export function randomLogUniformSize(
  random: () => number,
  minBytes: number,
  maxBytes: number,
): number {
  return toBlocks(minBytes * Math.exp(random() * Math.log(maxBytes / minBytes)));
}

/** The files a files plan writes, in order: its sizes, each repeated, shuffled with `seed` if asked. */
export function planFileSizes(plan: FilesPlan, seed: number): number[] {
  const base =
    plan.sizes ??
    logUniformSizes(plan.logUniform!.count, plan.logUniform!.minBytes, plan.logUniform!.maxBytes);
  const repeated = base.flatMap((size) => Array.from({ length: plan.repeats }, () => size));
  return plan.shuffle ? shuffled(repeated, seededRandom(seed)) : repeated;
}
