/**
 * The samples a run takes inside its files, gathered per phase into the columns the results
 * document stores (SampleColumns in app/contract/bench-result.ts) and the analysis reads.
 */
import type { SampleColumns, SamplesByPhase } from '../../contract/bench-result.js';

export type SampledPhase = keyof SamplesByPhase;

/** The sampler's cadence (native/src/io.h): at least one sample every 20 MiB... */
const maxSampleBytes = 20 * 2 ** 20;
/** ...and never coarser than this share of the bytes the phase plans to move. */
const plannedShare = 1 / 1000;
const minSampleBytes = 4096;

/** Most bytes between two samples for a phase planned to move `plannedBytes` (null: unknown). */
export function sampleBytesFor(plannedBytes: number | null): number {
  if (plannedBytes === null || !(plannedBytes > 0)) return maxSampleBytes;
  const share = Math.floor((plannedBytes * plannedShare) / minSampleBytes) * minSampleBytes;
  return Math.min(maxSampleBytes, Math.max(minSampleBytes, share));
}

/** Seconds are kept to 0.1 ms: finer than any clock step that matters, and short in JSON. */
const roundSeconds = (seconds: number) => Math.round(seconds * 1e4) / 1e4;

/** A transfer's own samples, as the native call returns them (seconds since it began). */
export interface TransferSamples {
  seconds: ArrayLike<number>;
  bytes: ArrayLike<number>;
}

export class PhaseSampleColumns {
  private readonly columns = new Map<SampledPhase, SampleColumns>();

  /**
   * Appends the samples of one file of `phase`: it began `startSeconds` after the phase did, with
   * `bytesBefore` bytes of the phase already moved, and is the phase's file number `file`. Times
   * never go back, even when the file's start was read a little late.
   */
  add(
    phase: SampledPhase,
    samples: TransferSamples,
    startSeconds: number,
    bytesBefore: number,
    file: number,
  ): void {
    let columns = this.columns.get(phase);
    if (!columns) {
      columns = { t: [], bytes: [], file: [] };
      this.columns.set(phase, columns);
    }
    let last = columns.t.at(-1) ?? 0;
    for (let i = 0; i < samples.seconds.length; i += 1) {
      last = Math.max(last, roundSeconds(startSeconds + samples.seconds[i]!));
      columns.t.push(last);
      columns.bytes.push(bytesBefore + samples.bytes[i]!);
      columns.file.push(file);
    }
  }

  get(phase: SampledPhase): SampleColumns | undefined {
    return this.columns.get(phase);
  }

  /** Every phase that has samples; undefined when none has. */
  byPhase(): SamplesByPhase | undefined {
    if (this.columns.size === 0) return undefined;
    return Object.fromEntries(this.columns) as SamplesByPhase;
  }
}
