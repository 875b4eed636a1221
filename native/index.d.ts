// Hand-written types for the Plumb N-API addon (native/build/Release/plumb.node).
// Every function validates its arguments (TypeError) and rejects with an Error carrying
// `code` (ENOENT, EACCES, ENOSPC, EROFS, ...), `syscall` and `path`, like node:fs.
//
// Paths, given and returned, are strings as app/contract/path.ts describes: a name's bytes that
// are not UTF-8 are kept as lone surrogates U+DC80-U+DCFF (on Windows, the name's UTF-16 as it
// is), so every path the addon returns names its file again, here and after a JSON round trip.
// Nothing that takes a path waits on what it names: a FIFO, socket or device (Windows: NUL, CON
// and the like) is refused with code EFTYPE where a file or folder is needed. Calls may be made
// from worker threads: terminating one mid-call leaves the process running, and stops within
// about 100 ms the calls that report progress (timed I/O, queue depth, hashing, the scan).

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
  /**
   * Seconds between the samples taken inside the file (default 0.25); 0 takes none (only to
   * measure what sampling costs).
   */
  sampleSeconds?: number;
  /** Most bytes between two samples (default 20 MiB), whichever of the two comes first. */
  sampleBytes?: number;
  /**
   * timedWrite only: stamp every 4 KiB block with this file id and run tag and the block's offset
   * (a 32-byte header with a check over the block), for `verifyFile`. Off by default.
   */
  stamp?: { fileId: number; runTag?: number };
}

export interface VerifyFileOptions {
  /** The run tag the file was written with (default 0). */
  runTag?: number;
  buffered?: boolean;
  cancel?: CancelHandle;
  /** Called from the JS thread about every 100 ms while the file is read; a throw stops it. */
  onProgress?: (progress: { bytesDone: number; seconds: number }) => void;
}

/** What a bad block held: an intact block of another place, zeros, or anything else. */
export type NativeBlockFinding = 'other-block' | 'zeros' | 'damaged';

export interface NativeVerifyFileResult {
  path: string;
  /** Bytes read back (the file's size). */
  bytes: number;
  /** Bytes in blocks that carry a stamp (all but a last block under 32 bytes). */
  checkedBytes: number;
  /** Bytes in 4 KiB blocks whose stamp or content is not what was written there. */
  badBytes: number;
  badBlocks: number;
  /** Offset of the first bad block in the file, or null when every block is right. */
  firstBadOffset: number | null;
  /** What the first bad block held instead (for another block: whose, and whether of this run). */
  firstBadFound: {
    kind: NativeBlockFinding;
    fileId: number | null;
    offset: number | null;
    sameRun: boolean;
  } | null;
  cacheMode: CacheMode;
  seconds: number;
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
  /**
   * Samples inside the file, in columns: at `seconds[i]` since the call began, `bytes[i]` of the
   * file had moved. The first at the start of the transfer (0 bytes), the last at its end (after
   * a write's flush); empty when sampling was off.
   */
  samples: { seconds: Float64Array; bytes: Float64Array };
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
   * Reads a file written by timedWrite with `stamp` back, uncached where the OS allows, and checks
   * every 4 KiB block is the one written at its place (file id `fileId`, `options.runTag`).
   */
  verifyFile(
    path: string,
    fileId: number,
    options?: VerifyFileOptions,
  ): Promise<NativeVerifyFileResult>;
  /**
   * Keeps `queueDepth` requests in flight per thread on the test file at `path` until the time or
   * byte budget is spent. A test file this call created (or rewrote) is removed if it fails or is
   * cancelled.
   */
  queueDepthRun(path: string, options: QueueDepthOptions): Promise<QueueDepthResult>;
  /**
   * Makes the OS forget the cached pages of these files (macOS: msync(MS_INVALIDATE) on a shared
   * mapping; Linux: posix_fadvise DONTNEED; Windows: an unbuffered open), before they are read.
   */
  evictCache(paths: readonly string[]): Promise<{ method: string; files: number }>;
  /** Drive temperature in °C for the volume holding `path`, where readable without privileges. */
  driveTemperature(path: string): Promise<number | null>;
  /** Cost of one reading of the monotonic clock that times every call, nanoseconds (measured now). */
  clockOverheadNanos(): number;
}

// ── Space: clones, shared extents, sparse files (src/*/space.cc) ─────────────────────────────

/** One mapped extent: position in the file, position on the device, and the file system's shared flag. */
export interface NativeExtent {
  logical: number;
  physical: number;
  length: number;
  /** The file system says other files (or snapshots) reference these blocks too. */
  shared: boolean;
}

/** How a file's data is stored. `null` means the OS cannot tell. */
export interface NativeFileSharing {
  logicalBytes: number;
  /** Bytes allocated to the file (st_blocks × 512; Windows: compressed/sparse size). */
  allocatedBytes: number;
  /** Physical extents with offsets (Linux FIEMAP, Windows ReFS refcounted extents); null where the OS has no such map. */
  extents: NativeExtent[] | null;
  /** Bytes in extents flagged shared (Linux), or allocated minus private bytes (macOS). */
  sharedBytes: number | null;
  /** Transparent compression (btrfs encoded extents, macOS UF_COMPRESSED, NTFS compressed). */
  compressed: boolean | null;
  /** macOS: files with the same clone id are full clones of each other. */
  cloneId: string | null;
  /** macOS: bytes only this file holds (what deleting it would free). */
  privateBytes: number | null;
  /** macOS: how many files share this clone. */
  cloneRefcount: number | null;
}

export interface NativeDedupeOutcome {
  /** Bytes the kernel verified equal and made shared. */
  bytesDeduped: number;
  /** The kernel found different bytes (or sizes differ): nothing past that point was shared. */
  differs: boolean;
}

export interface NativeDataMap {
  logicalBytes: number;
  allocatedBytes: number;
  /** False when the file system cannot report holes; `data` is then the whole file. */
  holesSupported: boolean;
  /** Ranges that hold data, ascending; the rest of the file is holes. */
  data: { offset: number; length: number }[];
}

/**
 * `fileSharing` for many files, in columns: file i's facts are at index i; its extents (when
 * `hasExtents[i]` is 1) are rows `extentStarts[i]` to `extentStarts[i + 1] - 1` of `extents`,
 * 3 numbers a row: physical offset, length, shared (1) or not (0).
 */
export interface NativeSharingColumns {
  /** 1 where the file could not be asked (then every fact of it is unknown). */
  failed: Uint8Array;
  allocatedBytes: Float64Array;
  /** macOS: bytes only this file holds; NaN where unknown. */
  privateBytes: Float64Array;
  /** 0 not compressed, 1 compressed, 2 unknown. */
  compressed: Uint8Array;
  /** macOS clone ids; null where unknown. */
  cloneIds: (string | null)[];
  /** One more entry than there are files. */
  extentStarts: Uint32Array;
  /** 0 where the OS has no extent map for the file (sharing unknown). */
  hasExtents: Uint8Array;
  extents: Float64Array;
}

/** How a guarded replacement ended (see replaceWithClone). */
export interface NativeReplaceResult {
  /**
   * replaced: the clone is in place and the original gone; in-use: another program has it open;
   * changed: the original no longer matches; opened: a program opened it meanwhile (swapped back).
   */
  outcome: 'replaced' | 'in-use' | 'changed' | 'opened';
  /** Set when a program opened the clone too: it was kept under this name, not removed. */
  keptPath: string | null;
}

/** How a guarded punch of zero blocks ended (see punchZeros). */
export interface NativePunchResult {
  /**
   * done: every zero block is a hole; in-use: another program has the file open, nothing was
   * changed; opened: a program opened it meanwhile, so the punch stopped there; too-slow: a step
   * outlasted the guard's proof (the lease-break time), so it stopped there.
   */
  outcome: 'done' | 'in-use' | 'opened' | 'too-slow';
  /** Bytes made into holes (all of them read as zeros under the guard). */
  punchedBytes: number;
}

export interface PlumbNative {
  fileSharing(path: string): Promise<NativeFileSharing>;
  /**
   * The same facts as `fileSharing` for many files in one call, asked on a few threads (default
   * 4); rejects ECANCELED within about 100 ms of a cancel.
   */
  fileSharingMany(
    paths: readonly string[],
    options?: { threads?: number; cancel?: CancelHandle },
  ): Promise<NativeSharingColumns>;
  /** Whether the file system holding `file` can share storage between files; null if it cannot be told. */
  sharingSupport(file: string): Promise<boolean | null>;
  /** Kernel-verified dedupe of all of `target` onto `source` (Linux FIDEDUPERANGE); ENOTSUP elsewhere. */
  dedupeFile(source: string, target: string): Promise<NativeDedupeOutcome>;
  /** Creates `target` (must not exist) as a clone of `source`; no partial target is left on failure. */
  cloneFile(source: string, target: string): Promise<void>;
  /** Owner, mode, xattrs/ACLs, flags, times (and birth time on macOS) from `from` onto `to`. */
  copyMetadata(from: string, to: string): Promise<void>;
  /** Exact access/modification times in nanoseconds since the epoch; does not follow links. */
  setTimes(path: string, atimeNs: bigint, mtimeNs: bigint): Promise<void>;
  /**
   * Replaces `target` by `clone` (a verified clone carrying the target's metadata, beside it)
   * so that no write to the original is lost: the original is held so that no other program has
   * it open (Linux write lease, Windows no sharing, macOS asks the OS), swapped atomically,
   * verified again (size, mtime, bytes against the clone) and only then removed. Any other
   * outcome leaves the original at `target` and the clone at `clone`. `swapPath` is a free name
   * beside them that Windows, which has no atomic exchange, uses for a moment.
   */
  replaceWithClone(
    clone: string,
    target: string,
    swapPath: string,
    expected: { ino: bigint; size: number; mtimeNs: bigint; ctimeNs: bigint },
  ): Promise<NativeReplaceResult>;
  dataRanges(path: string): Promise<NativeDataMap>;
  /**
   * Deallocates the whole blocks (of `blockBytes`) inside `ranges` that read as zeros, keeping
   * the size, and puts the access and modification times back. Each block is read and punched
   * while no other program can write the file (Linux write lease, Windows a handle shared with
   * nobody), so no write is lost: a file another program has open is left alone (`in-use`), and
   * one opened meanwhile stops the punch there (`opened`). macOS has no such guard: give it only
   * a fresh clone that no other program knows (then swap it in with replaceWithClone).
   */
  punchZeros(
    path: string,
    ranges: readonly { offset: number; length: number }[],
    blockBytes: number,
  ): Promise<NativePunchResult>;
  /**
   * Windows: moves a file to its drive's Recycle Bin (undoable), refusing with ENOTRASH where the
   * shell would delete it for good; ENOTSUP elsewhere (their Trash is a folder).
   */
  recycleFile(path: string): Promise<{ recycledPath: string; infoPath: string }>;
  /** Creates `path` (must not exist) as an all-hole file of `bytes`. */
  createSparseFile(path: string, bytes: number): Promise<void>;
  /** Syncs the volume holding `path` (Linux syncfs) so free space read next is up to date. */
  flushVolume(path: string): Promise<void>;
}

// ── Content hashing for duplicate detection (src/napi/hash_files.cc) ──────────────────────

export interface HashFilesOptions {
  /** Hash only the first and last `edgeBytes` of each file; 0 or absent: the whole file. */
  edgeBytes?: number;
  /** Files read and hashed at once (1–64, default 4). */
  threads?: number;
  cancel?: CancelHandle;
  /** About every 100 ms, and once at the end: files finished and bytes read so far. */
  onProgress?: (progress: { files: number; bytes: number }) => void;
}

export interface HashFilesResult {
  /** 16 bytes per path, in order (LaneHash128, non-cryptographic); zeros where a file failed. */
  digests: Buffer;
  bytesRead: number;
  /** Files that could not be read, ascending by index, with Node-shaped errors (code, syscall, path). */
  failures: { index: number; error: NodeJS.ErrnoException }[];
}

export interface PlumbNative {
  /**
   * Non-cryptographic 128-bit digests of many files, read with large sequential reads on a small
   * thread pool. For grouping candidates only: duplicates are byte-verified before any change.
   */
  hashFiles(paths: readonly string[], options?: HashFilesOptions): Promise<HashFilesResult>;
  /** LaneHash128 of a buffer (the definition `hashFiles` applies to file content). */
  hashBytes(data: Uint8Array): Buffer;
}

// ── Folder listing for the space scan's walk (src/napi/walk_js.cc) ─────────────────────────

/** One folder's entries as columns; entry i's numbers are `numbers[7 * i … 7 * i + 6]`. */
export interface NativeFolderListing {
  /** Why the folder could not be read (then it has no entries). */
  error: NodeJS.ErrnoException | null;
  names: string[];
  /** Per entry: 0 file, 1 folder, 2 symbolic link, 3 FIFO/socket/device, 4 metadata unreadable. */
  kinds: Uint8Array;
  /** Per entry: dev, ino, links, size, allocated bytes, mtimeMs, ctimeMs (as Node's lstat). */
  numbers: Float64Array;
}

export interface PlumbNative {
  /** The entries of each folder with their metadata (symbolic links not followed), in order. */
  listFolders(
    dirs: readonly string[],
    options?: { threads?: number; cancel?: CancelHandle },
  ): Promise<NativeFolderListing[]>;
}

// ── The whole space scan (src/scan/scan.cc, src/napi/scan_js.cc) ──────────────────────────

export interface NativeScanSettings {
  /** The folder; resolved against the working folder. */
  path: string;
  minBytes?: number;
  includeHidden?: boolean;
  skipPackages?: boolean;
  skipCloudFolders?: boolean;
  /** Copied into the result and every progress report. */
  scanId?: string;
  /** Also name the sparse files the walk counted (the result's sparsePaths). */
  sparsePaths?: boolean;
  /**
   * A file of the digests of the last scan of this folder: files whose inode, size and times did
   * not change are not read again; rewritten after the scan (scan/hash_cache.h). Anything at that
   * name but such a file is neither read nor replaced.
   */
  hashCache?: string;
  /** Also name every file at least this large that is not sparse (the result's largePaths). */
  largePaths?: number;
  /**
   * Bytes of the digests remembered for the hash cache held in memory (72 a hashed file) before
   * they are written, sorted, to runs beside it and merged into it at the end; 0: all are held.
   * Default 16 MiB.
   */
  spillBytes?: number;
  /**
   * scanFolder makes only the first this many groups (the largest) as objects, and says in
   * groupCount how many there are: a summary without an object for every file in a group.
   */
  groupsShown?: number;
}

/** One copy in a group of identical files (the contract's DuplicateFile). */
export interface NativeDuplicateFile {
  path: string;
  size: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Names of this file the walk saw (hard links), counted once. */
  links: number;
  /** Bytes this copy would free as a clone of the keeper; null when the OS cannot tell. */
  reclaimableBytes: number | null;
  /** It already shares all its storage with the keeper; null when the OS cannot tell. */
  alreadyClone: boolean | null;
}

/** Files with identical content (the contract's DuplicateGroup). */
export interface NativeDuplicateGroup {
  /** "<size>-<first 16 hex digits of the digest>" */
  id: string;
  size: number;
  keeper: string;
  files: NativeDuplicateFile[];
  nominalBytes: number;
  sharedBytes: number | null;
  reclaimableBytes: number | null;
  /** Why the figures are unknown or limited, for people. */
  note: string | null;
}

/** What scanFolder resolves with (the contract's ScanResult, plus the sparse paths when asked). */
export interface NativeScanResult {
  scanId: string;
  /** The folder, resolved. */
  root: string;
  fsType: string | null;
  sharingSupported: boolean | null;
  files: number;
  bytes: number;
  seconds: number;
  stageSeconds: { walk: number; compare: number; hash: number; sharing: number };
  skipped: {
    symlinks: number;
    otherVolumes: number;
    extraHardLinks: number;
    special: number;
    excluded: number;
    unreadable: number;
  };
  /** Largest reclaimable first, unknown after known; only the first `groupsShown` when given. */
  groups: NativeDuplicateGroup[];
  /** How many groups the scan found, when `groupsShown` was given. */
  groupCount?: number;
  totals: {
    nominalBytes: number;
    sharedBytes: number | null;
    reclaimableBytes: number | null;
    unknownGroups: number;
  };
  sparse: { files: number; logicalBytes: number; allocatedBytes: number };
  /** With settings.sparsePaths: the files counted in `sparse`. */
  sparsePaths?: string[];
  /** With settings.largePaths: files at least that large that are not sparse. */
  largePaths?: string[];
}

/** A scan's progress, at each phase change and about every 100 ms (the contract's ScanProgress). */
export interface NativeScanProgress {
  scanId: string;
  phase: 'walk' | 'compare' | 'hash' | 'sharing' | 'done';
  files: number;
  bytes: number;
  bytesToHash: number;
  bytesHashed: number;
  seconds: number;
  /** From the hashing rate so far; null until it can be estimated. */
  secondsLeft: number | null;
}

export interface PlumbNative {
  /**
   * Walks the folder, finds identical files (size, head and tail digest, full digest) and asks the
   * file system how each group's copies are stored. Rejects with `code` ENOENT, ENOTDIR, EACCES,
   * ... (message for people), or ECANCELED within 100 ms of a cancel.
   */
  scanFolder(
    settings: NativeScanSettings,
    options?: {
      cancel?: CancelHandle;
      onProgress?: (progress: NativeScanProgress) => void;
    },
  ): Promise<NativeScanResult>;
  /**
   * The same scan; resolves with its result as JSON text, exactly `JSON.stringify(result, null, 2)`
   * of what scanFolder resolves with, a Buffer of about 1 MB (whole groups) per `next()`, then
   * null. No JS object is made per file: `plumb space scan --json` prints it.
   */
  scanFolderJson(
    settings: NativeScanSettings,
    options?: {
      cancel?: CancelHandle;
      onProgress?: (progress: NativeScanProgress) => void;
    },
  ): Promise<{ next(): Buffer | null }>;
  /**
   * When `fd` is a pipe (Linux), lets it hold 1 MiB instead of 64 KiB, so its reader takes a large
   * output (scanFolderJson's) in fewer handoffs. Returns the pipe's size in bytes; 0 when `fd` is
   * not a pipe or the OS has no say. Throws a TypeError when `fd` is not a whole number.
   */
  widenPipe(fd: number): number;
}

/** Storage facts of one member of a group of identical files, as groupSharing takes them. */
export interface NativeMemberStorage {
  allocatedBytes: number;
  /** Physical extents (Linux FIEMAP, Windows ReFS); null when the OS has no map. */
  extents: { physical: number; length: number; shared: boolean }[] | null;
  /** macOS: equal clone ids are full clones of each other. */
  cloneId: string | null;
  /** macOS: bytes only this file holds. */
  privateBytes: number | null;
}

export interface NativeGroupSharing {
  /** The member the others should share storage with. */
  keeperIndex: number;
  /** Bytes of the copies (all but the keeper) already not taking space of their own. */
  sharedBytes: number | null;
  reclaimableBytes: number | null;
  /** Per member: what making it a clone of the keeper frees (0 for the keeper). */
  memberReclaimable: (number | null)[];
  /** Per member: it already shares all its storage with the keeper. */
  memberAlreadyClone: (boolean | null)[];
  note: string | null;
}

export interface PlumbNative {
  /**
   * The keeper, bytes already shared and bytes reclaimable for a group of identical files, members
   * in order of preference (the scan's own rule). `sweep` forces the general extent sweep.
   */
  groupSharing(
    members: readonly NativeMemberStorage[],
    options?: { sweep?: boolean },
  ): NativeGroupSharing;
}
