import { rm } from 'node:fs/promises';
import type { BenchEvent } from '../../contract/bench-events.js';
import type { FileRecord } from '../../contract/bench-result.js';
import { PlumbError, spaceGuardCode } from '../../contract/errors.js';
import { formatBytes } from '../../common/format.js';
import { cancelledError, type BenchIO, type CacheMode, type TimedTransfer } from './bench-io.js';
import { PhaseSampleColumns, sampleBytesFor, type SampledPhase } from './sample-columns.js';
import { guardMessage } from './space-guard.js';

/** An event as a phase emits it; the context adds the runId. */
export type PhaseEvent = BenchEvent extends infer E
  ? E extends BenchEvent
    ? Omit<E, 'runId'>
    : never
  : never;

export interface RunContextOptions {
  io: BenchIO;
  runId: string;
  target: string;
  signal: AbortSignal;
  buffered: boolean;
  /** Free bytes the run must leave on the volume. */
  reserveBytes: number;
  /** Bytes the run plans to move in all (for progress), null when open-ended. */
  plannedBytes: number | null;
  emit: (event: BenchEvent) => void;
  /** Bytes moved so far, shared by the contexts of one run (a paired run has one per target). */
  tally?: { bytes: number };
  /**
   * --verify: gives each file written its stamp (verify.ts's StampLedger; named by its shape, as
   * verify.ts reads the run's context).
   */
  ledger?: { stamp(file: string, bytes: number): { fileId: number; runTag: number } };
}

/** A file this run wrote and still holds, oldest first, so rotation can remove it. */
interface HeldFile {
  path: string;
  bytes: number;
}

/**
 * What every phase shares: the I/O layer, the free-space guard, the clock, progress events, and
 * the records of files done.
 */
export class RunContext {
  readonly files: FileRecord[] = [];
  readonly notices: string[] = [];
  readonly cacheModes = new Set<CacheMode>();
  /** How the files of the last read phase were dropped from the OS cache before it; null: none read. */
  cacheEviction: string | null = null;
  readonly held: HeldFile[] = [];
  private readonly started: number;
  private readonly tally: { bytes: number };
  private rotated = { count: 0, bytes: 0 };
  /** The samples taken inside the files of each phase. */
  readonly samples = new PhaseSampleColumns();
  /** Per sampled phase: when it began (io.now()), and its files and bytes so far. */
  private readonly sampledPhases = new Map<
    SampledPhase,
    { start: number; files: number; bytes: number; sampleBytes: number }
  >();
  /** When the transfer going on (or the last one) began, io.now(). */
  private transferStart = 0;

  constructor(readonly options: RunContextOptions) {
    this.started = options.io.now();
    this.tally = options.tally ?? { bytes: 0 };
  }

  get io(): BenchIO {
    return this.options.io;
  }

  emit(event: PhaseEvent): void {
    this.options.emit({ ...event, runId: this.options.runId } as BenchEvent);
  }

  notice(message: string): void {
    this.notices.push(message);
    this.emit({ type: 'notice', message });
  }

  checkCancelled(): void {
    if (this.options.signal.aborted) throw cancelledError();
  }

  elapsed(): number {
    return this.options.io.now() - this.started;
  }

  /**
   * Makes sure `bytes` more can be written without crossing the reserve. With `rotate`, removes
   * this run's oldest files until they fit; otherwise (or when nothing is left to remove) stops
   * the run with the guard's code before the volume fills.
   */
  async ensureRoom(bytes: number, rotate: boolean): Promise<void> {
    const refusal = await this.roomFor(bytes, rotate);
    if (refusal !== null) throw new PlumbError(spaceGuardCode, refusal);
  }

  /**
   * As `ensureRoom`, but says why `bytes` do not fit (the guard's sentence) instead of throwing,
   * for a phase that ends with what it measured; null when they fit.
   */
  async roomFor(bytes: number, rotate: boolean): Promise<string | null> {
    for (;;) {
      const { availableBytes } = await this.io.space(this.options.target);
      if (availableBytes - bytes >= this.options.reserveBytes) return null;
      const oldest = rotate ? this.held.shift() : undefined;
      if (!oldest) return guardMessage(bytes, availableBytes, this.options.reserveBytes);
      await rm(oldest.path, { force: true });
      this.rotated.count += 1;
      this.rotated.bytes += oldest.bytes;
    }
  }

  /** Bytes that may still be written now without crossing the reserve (never negative). */
  async roomLeft(): Promise<number> {
    const { availableBytes } = await this.io.space(this.options.target);
    return Math.max(0, availableBytes - this.options.reserveBytes);
  }

  /** A notice, once, when rotation removed files. */
  reportRotation(): void {
    if (this.rotated.count === 0) return;
    this.notice(
      `Rotated: removed the ${this.rotated.count} oldest test files (${formatBytes(this.rotated.bytes)}) during the run to stay within the free-space guard; every byte was still written to the drive.`,
    );
  }

  /**
   * Starts the clock of a phase whose files are sampled (after announcing it): the samples' `t`
   * count from here. Returns the start (io.now()).
   */
  startPhase(phase: SampledPhase, plannedBytes: number | null): number {
    const start = this.io.now();
    this.sampledPhases.set(phase, {
      start,
      files: 0,
      bytes: 0,
      sampleBytes: sampleBytesFor(plannedBytes),
    });
    return start;
  }

  private progress(phase: SampledPhase) {
    const base = this.tally.bytes;
    const sampled = this.sampledPhases.get(phase);
    const t0 = sampled ? this.transferStart - sampled.start : 0;
    const position = sampled && { bytes: sampled.bytes, file: sampled.files };
    return (bytesDone: number, seconds: number) => {
      this.emit({
        type: 'sample',
        phase,
        bytesDone: base + bytesDone,
        // The probes are not in the plan's bytes: how many run depends on when the rate is back.
        totalBytes: phase === 'recovery' ? null : this.options.plannedBytes,
        seconds: this.elapsed(),
        bytesPerSecond: seconds > 0 ? bytesDone / seconds : null,
        ...(position
          ? { t: t0 + seconds, phaseBytes: position.bytes + bytesDone, file: position.file }
          : {}),
      });
    };
  }

  /** Most bytes between two samples: a thousandth of what the phase plans, at most 20 MiB. */
  private sampleBytes(phase: SampledPhase): number {
    return this.sampledPhases.get(phase)?.sampleBytes ?? sampleBytesFor(this.options.plannedBytes);
  }

  /** Adds a finished transfer's samples to its phase's columns (a phase started with startPhase). */
  private addSamples(phase: SampledPhase, transfer: TimedTransfer): void {
    const sampled = this.sampledPhases.get(phase);
    if (!sampled) return;
    if (transfer.samples && transfer.samples.seconds.length > 0)
      this.samples.add(
        phase,
        transfer.samples,
        this.transferStart - sampled.start,
        sampled.bytes,
        sampled.files,
      );
    sampled.files += 1;
    sampled.bytes += transfer.bytes;
  }

  /** Records the samples of a recovery probe (its rate is the caller's business). */
  recordProbe(transfer: TimedTransfer): void {
    this.addSamples('recovery', transfer);
  }

  /** Writes one file of `bytes`, timed (the guard is checked by the caller). */
  async timedWrite(
    file: string,
    bytes: number,
    phase: 'write' | 'recovery',
  ): Promise<TimedTransfer> {
    this.checkCancelled();
    this.transferStart = this.io.now();
    const result = await this.io.write(file, bytes, {
      buffered: this.options.buffered,
      signal: this.options.signal,
      onProgress: this.progress(phase),
      sampleBytes: this.sampleBytes(phase),
      stamp: phase === 'write' ? this.options.ledger?.stamp(file, bytes) : undefined,
    });
    this.cacheModes.add(result.cacheMode);
    this.tally.bytes += result.bytes;
    return result;
  }

  /**
   * Before a read phase: the files it reads are dropped from the OS cache, all of them, so none is
   * served from memory (seed 004: uncached reads on an M1 at 7.5 GB/s came from memory).
   */
  async evictBeforeReads(files: readonly string[]): Promise<void> {
    this.checkCancelled();
    if (files.length > 0) this.cacheEviction = await this.io.evictCache(files);
  }

  async timedRead(file: string): Promise<TimedTransfer> {
    this.checkCancelled();
    this.transferStart = this.io.now();
    const result = await this.io.read(file, {
      buffered: this.options.buffered,
      signal: this.options.signal,
      onProgress: this.progress('read'),
      sampleBytes: this.sampleBytes('read'),
    });
    this.cacheModes.add(result.cacheMode);
    this.tally.bytes += result.bytes;
    return result;
  }

  /** Records a finished file of a phase (cumulative bytes, time since the phase began, temperature). */
  async record(
    phase: 'write' | 'read',
    transfer: TimedTransfer,
    phaseStart: number,
    count: number | null,
    /** Extra fields of the row (a paired run's target, stage and pairing). */
    tags: Pick<FileRecord, 'target' | 'stage' | 'pairing'> = {},
  ): Promise<FileRecord> {
    const previous = this.files.filter((f) => f.phase === phase);
    const cumulativeBytes = (previous.at(-1)?.cumulativeBytes ?? 0) + transfer.bytes;
    const t = this.io.now() - phaseStart;
    this.addSamples(phase, transfer);
    const temperatureC = await this.io.temperature(this.options.target);
    const file: FileRecord = {
      phase,
      bytes: transfer.bytes,
      seconds: transfer.seconds,
      cumulativeBytes,
      t,
      temperatureC,
      ...tags,
      ...(transfer.timings ? { timings: transfer.timings } : {}),
    };
    this.files.push(file);
    this.emit({
      type: 'file-done',
      index: previous.length,
      count,
      file,
      rate: transfer.seconds > 0 ? transfer.bytes / transfer.seconds : null,
    });
    return file;
  }

  /** Direct when every transfer was uncached; buffered as soon as one was not. */
  cacheMode(): CacheMode {
    return this.cacheModes.has('buffered') || (this.cacheModes.size === 0 && this.options.buffered)
      ? 'buffered'
      : 'direct';
  }
}
