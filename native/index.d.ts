// Hand-written types for the Plumb N-API addon (native/build/Release/plumb.node).
// Every function validates its arguments (TypeError) and rejects with an Error carrying
// `code` (ENOENT, EACCES, ENOSPC, EROFS, ...), `syscall` and `path`, like node:fs.

export interface NativeVolumeInfo {
  /** The path asked about, resolved. */
  path: string;
  fsType: string | null;
  mountPoint: string | null;
  device: string | null;
  totalBytes: number;
  freeBytes: number;
  /** Bytes an unprivileged user may still write. */
  availableBytes: number;
  blockSize: number;
  /** Required alignment for direct (uncached) I/O, in bytes; null when the OS does not say. */
  directIoAlignment: number | null;
  supportsClones: boolean | null;
  supportsSparse: boolean | null;
  rotational: boolean | null;
  /** Bus as the OS reports it: "nvme", "usb", "sata", "thunderbolt", "virtio", ...; null if unknown. */
  bus: string | null;
  medium: 'ssd' | 'hdd' | null;
  internal: boolean | null;
  readOnly: boolean | null;
}

/** How the data actually travelled: uncached (direct) or through the OS cache (buffered + flush). */
export type CacheMode = 'direct' | 'buffered';

/** A cancel switch shared with native work; cancelling makes the call reject with code ECANCELED. */
export interface CancelHandle {
  cancel(): void;
  readonly cancelled: boolean;
}

export interface TimedIoOptions {
  /** Transfer size per system call, bytes, multiple of the alignment. Default chosen by measurement. */
  chunkBytes?: number;
  /** Force buffered I/O (+ flush and drop-cache hints) even where direct I/O works. */
  buffered?: boolean;
  cancel?: CancelHandle;
  /** Called from the JS thread about every 100 ms while the transfer runs; a throw stops it. */
  onProgress?: (progress: { bytesDone: number; seconds: number }) => void;
}

export interface TimedIoResult {
  path: string;
  bytes: number;
  cacheMode: CacheMode;
  /** Alignment used for direct I/O, bytes (null when buffered). */
  alignment: number | null;
  chunkBytes: number;
  /** Phase timings from a monotonic clock taken in C++, seconds. */
  seconds: { open: number; transfer: number; flush: number; close: number; total: number };
}

export type QueueOp = 'read' | 'write' | 'randread' | 'randwrite';

export interface QueueDepthOptions {
  op: QueueOp;
  blockSize: number;
  queueDepth: number;
  threads?: number;
  /** Size of the test file at `path`; it is created with incompressible data when missing or short. */
  fileBytes: number;
  /** Stop after this long... */
  durationSeconds?: number;
  /** ...or after this many bytes, whichever comes first. */
  totalBytes?: number;
  /** Default 100 (10 ... 60000). */
  sampleIntervalMs?: number;
  buffered?: boolean;
  /** Force one engine (ENOTSUP where it cannot run); by default the best available is used. */
  engine?: QueueEngineName;
  cancel?: CancelHandle;
  /** One call per sample, never merged; all are delivered before the Promise settles. */
  onSample?: (sample: QueueSample) => void;
}

export type QueueEngineName = 'io_uring' | 'libaio' | 'threads' | 'overlapped';

export interface QueueSample {
  /** Seconds since the run started, at the end of this sample. */
  t: number;
  bytesPerSecond: number;
  iops: number;
}

export interface QueueDepthResult {
  op: QueueOp;
  blockSize: number;
  queueDepth: number;
  threads: number;
  bytes: number;
  seconds: number;
  bytesPerSecond: number;
  iops: number;
  /** Completion latency, seconds, from a histogram. */
  latency: { mean: number; p50: number; p90: number; p99: number; p999: number; max: number };
  samples: QueueSample[];
  cacheMode: CacheMode;
  /** How requests were kept in flight. */
  engine: QueueEngineName;
}

export interface PlumbNative {
  /** Bumped when the addon's interface changes incompatibly. */
  abiVersion: number;
  volumeInfo(path: string): Promise<NativeVolumeInfo>;
  createCancel(): CancelHandle;
  /**
   * Creates (or truncates) `path` and writes `bytes` of incompressible data, timed, then flushes it
   * to the drive. On error or cancel the partial file is removed.
   */
  timedWrite(path: string, bytes: number, options?: TimedIoOptions): Promise<TimedIoResult>;
  /** Reads the whole file at `path`, uncached where the OS allows, timed. */
  timedRead(path: string, options?: TimedIoOptions): Promise<TimedIoResult>;
  /**
   * Keeps `queueDepth` requests in flight per thread on the test file at `path` until the time or
   * byte budget is spent. A test file this call created (or rewrote) is removed if it fails or is
   * cancelled.
   */
  queueDepthRun(path: string, options: QueueDepthOptions): Promise<QueueDepthResult>;
  /** Drive temperature in °C for the volume holding `path`, where readable without privileges. */
  driveTemperature(path: string): Promise<number | null>;
  /** Cost of one reading of the monotonic clock that times every call, nanoseconds (measured now). */
  clockOverheadNanos(): number;
}
