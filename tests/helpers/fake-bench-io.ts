/**
 * A pretend drive for driving the runner in unit tests: a write cache that holds `cacheBytes`
 * at `fastRate`, then `slowRate`, draining at `drainRate` while idle; a virtual clock; free space
 * that shrinks by what the run holds. Files are created empty on the real file system so the
 * runner's folder handling and cleanup are exercised for real.
 */
import { existsSync, writeFileSync } from 'node:fs';
import type { QueueDepthResult } from '../../native/index.js';
import { PlumbError } from '../../app/contract/errors.js';
import type { BenchIO, TransferOptions } from '../../app/core/bench/bench-io.js';

export interface FakeDriveOptions {
  fastRate?: number;
  slowRate?: number;
  cacheBytes?: number;
  drainRate?: number;
  readRate?: number;
  latencySeconds?: number;
  totalBytes?: number;
  availableBytes?: number;
  cacheMode?: 'direct' | 'buffered';
  temperature?: (cacheUsedBytes: number) => number | null;
  /** Called before each write (e.g. to cancel, or to fill the disk from "another process"). */
  beforeWrite?: (index: number, drive: FakeDrive) => void;
  /** Writes return samples inside the file, as the native sampler takes them (off by default). */
  samples?: boolean;
  /**
   * A fake-capacity drive: it keeps only this many bytes of the stamped writes, the run's byte x
   * landing at x % realBytes, so each place holds the last block written there (as wrapfs.c).
   */
  realBytes?: number;
  /**
   * A failing drive: reading back any byte the run wrote at or beyond this offset fails with EIO
   * (once the file's bytes before it have been read).
   */
  unreadableFrom?: number;
}

const chunkBytes = 4 * 1024 * 1024;

/**
 * Samples as native/src/engine/timed_transfer.cc takes them: one at the start, then at the end of
 * a 4 MiB chunk once 0.25 s or `sampleBytes` have passed since the last, and one at the end.
 */
function samplesOf(bytes: number, timeAt: (b: number) => number, sampleBytes = 20 * 2 ** 20) {
  const seconds = [timeAt(0)];
  const moved = [0];
  for (let b = Math.min(bytes, chunkBytes); b < bytes; b = Math.min(bytes, b + chunkBytes)) {
    if (timeAt(b) - seconds.at(-1)! >= 0.25 || b - moved.at(-1)! >= sampleBytes) {
      seconds.push(timeAt(b));
      moved.push(b);
    }
  }
  seconds.push(timeAt(bytes));
  moved.push(bytes);
  return { seconds: Float64Array.from(seconds), bytes: Float64Array.from(moved) };
}

export class FakeDrive implements BenchIO {
  clock = 0;
  cacheUsed = 0;
  writes = 0;
  externalBytes = 0;
  readonly held = new Map<string, number>();
  readonly options: Required<
    Omit<
      FakeDriveOptions,
      'beforeWrite' | 'temperature' | 'samples' | 'realBytes' | 'unreadableFrom'
    >
  > &
    Pick<
      FakeDriveOptions,
      'beforeWrite' | 'temperature' | 'samples' | 'realBytes' | 'unreadableFrom'
    >;
  /** Stamped files in the order written: their id and where they start in the run's bytes. */
  readonly stamped: { file: string; fileId: number; runOffset: number; bytes: number }[] = [];
  /** The least free space seen after any write (to check a run never crossed its reserve). */
  leastAvailable = Number.POSITIVE_INFINITY;

  constructor(options: FakeDriveOptions = {}) {
    this.options = {
      fastRate: 2e9,
      slowRate: 0.5e9,
      cacheBytes: Number.POSITIVE_INFINITY,
      drainRate: 0.2e9,
      readRate: 3e9,
      latencySeconds: 0.001,
      totalBytes: 1e12,
      availableBytes: 5e11,
      cacheMode: 'direct',
      ...options,
    };
  }

  private heldBytes(): number {
    let sum = 0;
    for (const [file, bytes] of this.held) if (existsSync(file)) sum += bytes;
    return sum;
  }

  async volume(dir: string) {
    const { availableBytes, totalBytes } = await this.space();
    return {
      path: dir,
      fsType: 'fakefs',
      totalBytes,
      freeBytes: availableBytes,
      availableBytes,
      bus: null,
    };
  }

  async space() {
    return {
      totalBytes: this.options.totalBytes,
      availableBytes: this.options.availableBytes - this.heldBytes() - this.externalBytes,
    };
  }

  private check(signal: AbortSignal): void {
    if (signal.aborted) throw new PlumbError('ECANCELED', 'cancelled');
  }

  async write(file: string, bytes: number, options: TransferOptions) {
    this.options.beforeWrite?.(this.writes, this);
    this.writes += 1;
    this.check(options.signal);
    const { availableBytes } = await this.space();
    if (bytes > availableBytes) throw new PlumbError('ENOSPC', 'No space left on device');
    const fast = Math.max(0, Math.min(bytes, this.options.cacheBytes - this.cacheUsed));
    const seconds =
      this.options.latencySeconds +
      fast / this.options.fastRate +
      (bytes - fast) / this.options.slowRate;
    this.cacheUsed = Math.min(this.options.cacheBytes, this.cacheUsed + bytes);
    options.onProgress?.(bytes / 2, seconds / 2);
    this.clock += seconds;
    writeFileSync(file, '');
    this.held.set(file, bytes);
    this.leastAvailable = Math.min(this.leastAvailable, (await this.space()).availableBytes);
    if (options.stamp) {
      const last = this.stamped.at(-1);
      this.stamped.push({
        file,
        fileId: options.stamp.fileId,
        runOffset: last ? last.runOffset + last.bytes : 0,
        bytes,
      });
    }
    options.onProgress?.(bytes, seconds);
    const timeAt = (b: number) =>
      this.options.latencySeconds +
      Math.min(b, fast) / this.options.fastRate +
      Math.max(0, b - fast) / this.options.slowRate;
    return {
      bytes,
      seconds,
      cacheMode: this.options.cacheMode,
      ...(this.options.samples ? { samples: samplesOf(bytes, timeAt, options.sampleBytes) } : {}),
    };
  }

  /** The file lists evictCache was given, in order. */
  readonly evicted: string[][] = [];
  async evictCache(files: readonly string[]) {
    this.evicted.push([...files]);
    return 'fake eviction';
  }

  async read(file: string, options: TransferOptions) {
    this.check(options.signal);
    const bytes = this.held.get(file) ?? 4096;
    const seconds = this.options.latencySeconds + bytes / this.options.readRate;
    this.clock += seconds;
    options.onProgress?.(bytes, seconds);
    return { bytes, seconds, cacheMode: this.options.cacheMode };
  }

  /**
   * Reads a stamped file back: every block is right unless the drive is a fake one, where a block
   * is right only if no later write wrapped onto its place.
   */
  async verify(
    file: string,
    stamp: { fileId: number; runTag: number },
    options: Omit<TransferOptions, 'stamp'>,
  ) {
    this.check(options.signal);
    const record = this.stamped.find((s) => s.file === file && s.fileId === stamp.fileId);
    if (!record) throw new PlumbError('ENOENT', `not written with a stamp: ${file}`);
    const seconds = this.options.latencySeconds + record.bytes / this.options.readRate;
    const failAt = (this.options.unreadableFrom ?? Infinity) - record.runOffset;
    if (failAt < record.bytes) {
      const readable = Math.max(0, failAt);
      options.onProgress?.(readable, (seconds * readable) / record.bytes);
      this.clock += (seconds * readable) / record.bytes;
      throw Object.assign(new Error(`EIO: i/o error, read '${file}'`), { code: 'EIO' });
    }
    options.onProgress?.(record.bytes / 2, seconds / 2);
    this.check(options.signal);
    this.clock += seconds;
    options.onProgress?.(record.bytes, seconds);
    const last = this.stamped.at(-1)!;
    const runBytes = last.runOffset + last.bytes;
    const real = this.options.realBytes ?? Number.POSITIVE_INFINITY;
    // Byte x survives when no write at x + real followed: x ≥ runBytes − real.
    const goodFrom = runBytes - real;
    const badBytes = Math.max(
      0,
      Math.min(record.runOffset + record.bytes, goodFrom) - record.runOffset,
    );
    let firstBadFound = null;
    if (badBytes > 0) {
      // What the first bad place holds: the last block written onto it.
      const x = record.runOffset;
      const over = x + Math.floor((runBytes - 1 - x) / real) * real;
      const holder = this.stamped.find((s) => over >= s.runOffset && over < s.runOffset + s.bytes)!;
      firstBadFound = {
        kind: 'other-block' as const,
        fileId: holder.fileId,
        offset: over - holder.runOffset,
        sameRun: true,
      };
    }
    return {
      path: file,
      bytes: record.bytes,
      checkedBytes: record.bytes,
      badBytes,
      badBlocks: Math.ceil(badBytes / 4096),
      firstBadOffset: badBytes > 0 ? 0 : null,
      firstBadFound,
      cacheMode: this.options.cacheMode,
      seconds,
    };
  }

  async queueRun(
    file: string,
    options: Parameters<BenchIO['queueRun']>[1],
  ): Promise<QueueDepthResult> {
    this.check(options.signal);
    writeFileSync(file, '');
    this.held.set(file, options.fileBytes);
    const bytesPerSecond = options.op.startsWith('rand') ? 50e6 * options.queueDepth : 1e9;
    const samples = [0.5, 1].map((t) => ({
      t: t * options.durationSeconds,
      bytesPerSecond,
      iops: bytesPerSecond / options.blockSize,
    }));
    for (const sample of samples) options.onSample?.(sample);
    this.clock += options.durationSeconds;
    return {
      op: options.op,
      blockSize: options.blockSize,
      queueDepth: options.queueDepth,
      threads: options.threads,
      bytes: bytesPerSecond * options.durationSeconds,
      seconds: options.durationSeconds,
      bytesPerSecond,
      iops: bytesPerSecond / options.blockSize,
      latency: { mean: 1e-4, p50: 1e-4, p90: 2e-4, p99: 3e-4, p999: 5e-4, max: 1e-3 },
      samples,
      cacheMode: this.options.cacheMode,
      engine: 'threads',
    };
  }

  async temperature() {
    return this.options.temperature ? this.options.temperature(this.cacheUsed) : null;
  }

  now(): number {
    return this.clock;
  }

  async sleep(seconds: number, signal: AbortSignal): Promise<void> {
    this.check(signal);
    this.clock += seconds;
    this.cacheUsed = Math.max(0, this.cacheUsed - seconds * this.options.drainRate);
  }
}

/** A FakeDrive whose writes each wait 5 ms, so a run is still going while a test acts on it. */
export function slowDrive(): FakeDrive {
  const drive = new FakeDrive();
  const write = drive.write.bind(drive);
  drive.write = async (...args) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return write(...args);
  };
  return drive;
}
