import type { FilesPlan } from '../../contract/bench.js';
import { seededRandom, shuffled } from './seeded-random.js';

/** Sizes are whole 4 KiB blocks so direct I/O never needs a partial block. */
export const sizeQuantum = 4096;

/** `bytes` rounded to the nearest whole block, at least one block. */
export function toBlocks(bytes: number): number {
  return Math.max(sizeQuantum, Math.round(bytes / sizeQuantum) * sizeQuantum);
}

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
