/**
 * The runner's window on the disk: timed transfers, queue-depth runs, volume facts, free space,
 * temperature, and the clock. The real one wraps the native addon; unit tests drive the runner
 * with a fake one.
 */
import { statfs } from 'node:fs/promises';
import type {
  CancelHandle,
  NativeVerifyFileResult,
  QueueDepthResult,
  TimedIoResult,
} from '../../../native/index.js';
import type { QueueRunSpec } from '../../contract/plan.js';
import { PlumbError } from '../../contract/errors.js';
import { loadNative } from '../native/load.js';
import { hostOs } from '../os/index.js';
import type { TransferSamples } from './sample-columns.js';

export type CacheMode = 'direct' | 'buffered';

export interface TransferOptions {
  buffered: boolean;
  signal: AbortSignal;
  /** Bytes moved so far in this transfer and seconds since it began. */
  onProgress?: (bytesDone: number, seconds: number) => void;
  /** Most bytes between two samples inside the file (default 20 MiB; see sample-columns.ts). */
  sampleBytes?: number;
  /** Writes only: stamp every 4 KiB block for `verify` (file id, run tag). */
  stamp?: { fileId: number; runTag: number };
}

export interface TimedTransfer {
  bytes: number;
  /** Open to close, seconds, from the addon's monotonic clock. */
  seconds: number;
  cacheMode: CacheMode;
  /** The parts of `seconds`, where the I/O layer knows them. */
  timings?: { open: number; transfer: number; flush: number; close: number };
  /** Samples inside the file (seconds since the transfer began, bytes of it), where taken. */
  samples?: TransferSamples;
}

export interface VolumeFacts {
  path: string;
  fsType: string | null;
  totalBytes: number;
  freeBytes: number;
  availableBytes: number;
  bus: string | null;
}

export interface SpaceNow {
  totalBytes: number;
  availableBytes: number;
}

export interface QueueRunOptions extends QueueRunSpec {
  fileBytes: number;
  durationSeconds: number;
  totalBytes?: number;
  buffered: boolean;
  signal: AbortSignal;
  onSample?: (sample: { t: number; bytesPerSecond: number; iops: number }) => void;
}

export interface BenchIO {
  volume(dir: string): Promise<VolumeFacts>;
  /** Free space right now (cheap: called before every file). */
  space(dir: string): Promise<SpaceNow>;
  write(file: string, bytes: number, options: TransferOptions): Promise<TimedTransfer>;
  read(file: string, options: TransferOptions): Promise<TimedTransfer>;
  /** Reads a stamped file back uncached and checks every block (absent: --verify unsupported). */
  verify?(
    file: string,
    stamp: { fileId: number; runTag: number },
    options: Omit<TransferOptions, 'stamp'>,
  ): Promise<NativeVerifyFileResult>;
  /** Drops the files read next from the OS cache; resolves with how it was done. */
  evictCache(files: readonly string[]): Promise<string>;
  queueRun(file: string, options: QueueRunOptions): Promise<QueueDepthResult>;
  temperature(dir: string): Promise<number | null>;
  /** Monotonic seconds. */
  now(): number;
  /** Waits, or rejects with ECANCELED when the signal fires. */
  sleep(seconds: number, signal: AbortSignal): Promise<void>;
}

export function cancelledError(): PlumbError {
  return new PlumbError('ECANCELED', 'Cancelled; the test files were removed.');
}

export function isCancelled(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ECANCELED';
}

function abortableSleep(seconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(cancelledError());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, seconds * 1000);
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The addon's cancel switch, flipped when `signal` fires. */
function linkedCancel(signal: AbortSignal): { cancel: CancelHandle; release: () => void } {
  const cancel = loadNative().createCancel();
  const onAbort = () => cancel.cancel();
  if (signal.aborted) cancel.cancel();
  else signal.addEventListener('abort', onAbort, { once: true });
  return { cancel, release: () => signal.removeEventListener('abort', onAbort) };
}

/** The real disk, through the native addon. */
export function nativeBenchIO(): BenchIO {
  const native = () => loadNative();
  const transfer = async (
    run: (cancel: CancelHandle) => Promise<TimedIoResult>,
    signal: AbortSignal,
  ): Promise<TimedTransfer> => {
    const link = linkedCancel(signal);
    try {
      const result = await run(link.cancel);
      const { open, transfer: moving, flush, close, total } = result.seconds;
      return {
        bytes: result.bytes,
        seconds: total,
        cacheMode: result.cacheMode,
        timings: { open, transfer: moving, flush, close },
        samples: result.samples,
      };
    } finally {
      link.release();
    }
  };
  return {
    async volume(dir) {
      const info = await hostOs.completeVolumeFacts(await native().volumeInfo(dir));
      return {
        path: info.path,
        fsType: info.fsType,
        totalBytes: info.totalBytes,
        freeBytes: info.freeBytes,
        availableBytes: info.availableBytes,
        bus: info.bus,
      };
    },
    async evictCache(files) {
      return (await native().evictCache(files)).method;
    },
    async space(dir) {
      const stats = await statfs(dir);
      return { totalBytes: stats.blocks * stats.bsize, availableBytes: stats.bavail * stats.bsize };
    },
    write(file, bytes, { buffered, signal, onProgress, sampleBytes, stamp }) {
      return transfer(
        (cancel) =>
          native().timedWrite(file, bytes, {
            buffered,
            cancel,
            sampleBytes,
            ...(stamp ? { stamp } : {}),
            onProgress: onProgress && ((p) => onProgress(p.bytesDone, p.seconds)),
          }),
        signal,
      );
    },
    read(file, { buffered, signal, onProgress, sampleBytes }) {
      return transfer(
        (cancel) =>
          native().timedRead(file, {
            buffered,
            cancel,
            sampleBytes,
            onProgress: onProgress && ((p) => onProgress(p.bytesDone, p.seconds)),
          }),
        signal,
      );
    },
    async verify(file, { fileId, runTag }, { buffered, signal, onProgress }) {
      const link = linkedCancel(signal);
      try {
        return await native().verifyFile(file, fileId, {
          runTag,
          buffered,
          cancel: link.cancel,
          onProgress: onProgress && ((p) => onProgress(p.bytesDone, p.seconds)),
        });
      } finally {
        link.release();
      }
    },
    async queueRun(file, options) {
      const link = linkedCancel(options.signal);
      try {
        return await native().queueDepthRun(file, {
          op: options.op,
          blockSize: options.blockSize,
          queueDepth: options.queueDepth,
          threads: options.threads,
          fileBytes: options.fileBytes,
          durationSeconds: options.durationSeconds,
          totalBytes: options.totalBytes,
          buffered: options.buffered,
          cancel: link.cancel,
          onSample: options.onSample,
        });
      } finally {
        link.release();
      }
    },
    async temperature(dir) {
      try {
        return await native().driveTemperature(dir);
      } catch {
        return null; // a temperature is a bonus; never fail a run for it
      }
    },
    now: () => performance.now() / 1000,
    sleep: abortableSleep,
  };
}
