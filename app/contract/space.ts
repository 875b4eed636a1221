/**
 * Space: duplicates turned into clones, with honest savings, and sparse files. `null` in a byte
 * count always means "the OS cannot tell", never zero.
 */
import { z } from 'zod';
import { guard } from './guard.js';
import { JobId } from './jobs.js';
import { pathField } from './path.js';
import { firstGroupsPage, groupsPage } from '../common/groups-page.js';

const Bytes = z.number().int().nonnegative();
const UnknownBytes = Bytes.nullable();

export const ScanOptions = z.object({
  path: pathField('Give a folder path.'),
  /** Files smaller than this are not considered (empty files are never duplicates). */
  minBytes: Bytes.default(1),
  includeHidden: z.boolean().default(true),
  /** Skip macOS packages (.app, .photoslibrary, ...) and Library folders. */
  skipPackages: z.boolean().default(true),
  /** Skip cloud-synced folders (iCloud Drive, Dropbox, OneDrive, Google Drive), whose clients re-upload changed files. */
  skipCloudFolders: z.boolean().default(true),
});
export type ScanOptions = z.input<typeof ScanOptions>;

/** One file of a duplicate group, with the facts used to skip it if it changes after the scan. */
export const DuplicateFile = z.object({
  path: z.string(),
  size: Bytes,
  ino: z.number(),
  mtimeMs: z.number(),
  ctimeMs: z.number(),
  /** Other names of the same file (hard links), counted once. */
  links: z.number().int().positive(),
  /** Bytes this file would free if it became a clone of the keeper; null = unknown. */
  reclaimableBytes: UnknownBytes,
  /** It already shares all its storage with the keeper. */
  alreadyClone: z.boolean().nullable(),
});
export type DuplicateFile = z.infer<typeof DuplicateFile>;

export const DuplicateGroup = z.object({
  id: z.string(),
  size: Bytes,
  /** The file the others would share storage with. */
  keeper: z.string(),
  files: z.array(DuplicateFile),
  /** size × (copies − 1): what tools that sum file sizes would claim. */
  nominalBytes: Bytes,
  /** Of the nominal bytes, those already stored once (clones of each other, or shared elsewhere). */
  sharedBytes: UnknownBytes,
  /** What turning the copies into clones would really free. */
  reclaimableBytes: UnknownBytes,
  /** Why the figures are unknown or limited, for people. */
  note: z.string().nullable(),
});
export type DuplicateGroup = z.infer<typeof DuplicateGroup>;

export const SpaceTotals = z.object({
  nominalBytes: Bytes,
  sharedBytes: UnknownBytes,
  reclaimableBytes: UnknownBytes,
  /** Groups whose sharing the OS could not report. */
  unknownGroups: z.number().int().nonnegative(),
  /**
   * What removing every copy would free about (each copy's size; a name of a file with other
   * names nothing): the figure a disk without clones offers. Added when the app keeps a scan
   * (absent from `plumb space scan --json`).
   */
  removableBytes: Bytes.optional(),
});
export type SpaceTotals = z.infer<typeof SpaceTotals>;

export const ScanSkips = z.object({
  symlinks: z.number().int().nonnegative(),
  otherVolumes: z.number().int().nonnegative(),
  extraHardLinks: z.number().int().nonnegative(),
  special: z.number().int().nonnegative(),
  excluded: z.number().int().nonnegative(),
  unreadable: z.number().int().nonnegative(),
});

export const ScanResult = z.object({
  scanId: z.string(),
  root: z.string(),
  fsType: z.string().nullable(),
  /** Whether this file system can share storage between files at all (clones, dedupe). */
  sharingSupported: z.boolean().nullable(),
  files: z.number().int().nonnegative(),
  bytes: Bytes,
  seconds: z.number().nonnegative(),
  /** Wall seconds spent in each stage (for profiling; absent in scans saved before it existed). */
  stageSeconds: z
    .object({
      walk: z.number().nonnegative(),
      compare: z.number().nonnegative(),
      hash: z.number().nonnegative(),
      sharing: z.number().nonnegative(),
    })
    .optional(),
  skipped: ScanSkips,
  /** Sorted by reclaimable bytes, largest first (unknown after known). */
  groups: z.array(DuplicateGroup),
  totals: SpaceTotals,
  /** Files whose allocated size is well below their logical size. */
  sparse: z.object({
    files: z.number().int().nonnegative(),
    logicalBytes: Bytes,
    allocatedBytes: Bytes,
  }),
  /**
   * File content the scan read to compare files (0 when every digest came from the last scan's
   * cache: files unchanged in inode, size and times are not read again). Absent in older scans.
   */
  contentRead: z.object({ files: z.number().int().nonnegative(), bytes: Bytes }).optional(),
});
export type ScanResult = z.infer<typeof ScanResult>;

/** The last scan of a folder, kept between runs, and when it finished. */
export const SavedScan = z.object({ savedAt: z.string(), result: ScanResult });
export type SavedScan = z.infer<typeof SavedScan>;

/**
 * A kept scan as it is reopened: its figures with the first `firstGroupsPage` groups in
 * `result.groups`, and how many it has in all; space.groups gives the others, page by page.
 */
export const ReopenedScan = SavedScan.extend({ groupCount: z.number().int().nonnegative() });
export type ReopenedScan = z.infer<typeof ReopenedScan>;

/**
 * Groups `offset`… of a scan, in the scan's order (largest saving first), with the scan's figures
 * as they now are (an apply on the scan updates them: see space.dedupe).
 */
export const GroupsPage = z.object({
  scanId: z.string(),
  root: z.string(),
  groupCount: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  groups: z.array(DuplicateGroup),
  figures: ScanResult.omit({ groups: true }),
});
export type GroupsPage = z.infer<typeof GroupsPage>;

export const ScanPhase = z.enum(['walk', 'compare', 'hash', 'sharing', 'done']);
export const ScanProgress = z.object({
  scanId: z.string(),
  phase: ScanPhase,
  files: z.number().int().nonnegative(),
  bytes: Bytes,
  bytesToHash: Bytes,
  bytesHashed: Bytes,
  seconds: z.number().nonnegative(),
  /** Estimated from the hashing rate so far; null until it can be estimated. */
  secondsLeft: z.number().nonnegative().nullable(),
});
export type ScanProgress = z.infer<typeof ScanProgress>;

export const DedupeMethod = z.enum(['dedupe-range', 'clone-rename']);
export type DedupeMethod = z.infer<typeof DedupeMethod>;

export const DedupeAction = z.object({
  groupId: z.string(),
  keeper: z.string(),
  target: z.string(),
  predictedBytes: UnknownBytes,
  status: z.enum(['planned', 'done', 'skipped', 'failed']),
  /**
   * Why it was skipped or failed, in words, and a code: a failure's error code, EROFS or EACCES
   * for a copy that cannot be changed where it is, `alreadySharedCode` (app/common/space-codes.ts) for a copy left alone
   * because it already shares all its storage with the kept file (it frees nothing, and nothing
   * is wrong with it).
   */
  reason: z.string().nullable(),
  code: z.string().nullable(),
});
export type DedupeAction = z.infer<typeof DedupeAction>;

export const DedupeReport = z.object({
  dryRun: z.boolean(),
  method: DedupeMethod,
  actions: z.array(DedupeAction),
  predictedBytes: UnknownBytes,
  /** Free space of the volume after minus before; null in a dry run. */
  measuredFreedBytes: z.number().int().nullable(),
  counts: z.object({
    planned: z.number().int().nonnegative(),
    done: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
  }),
});
export type DedupeReport = z.infer<typeof DedupeReport>;

export const DedupeInput = z.object({
  scanId: z.string().min(1),
  /** Only these groups; all groups when absent. */
  groupIds: z.array(z.string()).optional(),
  /** The file to keep per group id (the others become its clones); the scan's keeper otherwise. */
  keepers: z.record(z.string(), z.string()).optional(),
  /** Dry run unless true. */
  apply: z.boolean().default(false),
  /**
   * The caller's id for this apply as a job: its progress (files and bytes) goes out through
   * `job.event`, and jobs.cancel stops it between files; the call still returns the report.
   */
  jobId: JobId.optional(),
});

/** The system Trash a batch of copies goes to (or why there is none reachable). */
export const TrashPlace = z.object({
  available: z.boolean(),
  kind: z.enum(['xdg-home', 'xdg-volume', 'macos-home', 'macos-volume', 'recycle-bin']).nullable(),
  /** The trash folder (Linux: the one holding files/ and info/; Windows: the drive). */
  location: z.string().nullable(),
  /** Why nothing can be moved there, for people; null when available. */
  reason: z.string().nullable(),
});
export type TrashPlace = z.infer<typeof TrashPlace>;

/** One copy to move to the Trash, verified identical to the kept file just before. */
export const TrashAction = z.object({
  groupId: z.string(),
  keeper: z.string(),
  target: z.string(),
  /**
   * What deleting it from the Trash would free: a real copy its allocated size; a clone of the
   * kept file, or one name of a file with other names (hard links), nothing. null = unknown.
   */
  freesBytes: UnknownBytes,
  /** Why that figure, in words ("a real copy: its allocated size"). */
  freesReason: z.string(),
  status: z.enum(['planned', 'moved', 'skipped', 'failed']),
  reason: z.string().nullable(),
  code: z.string().nullable(),
  /** Where it is in the Trash once moved. */
  trashedPath: z.string().nullable(),
});
export type TrashAction = z.infer<typeof TrashAction>;

export const TrashReport = z.object({
  dryRun: z.boolean(),
  /** Names the moved files for the second step (space.trash.empty); null in a dry run. */
  batchId: z.string().nullable(),
  /**
   * Earlier batches whose run was stopped (killed) before it finished, settled now: every file
   * they had moved is in them, for the second step.
   */
  interrupted: z
    .array(z.object({ batchId: z.string(), moved: z.number().int().nonnegative() }))
    .optional(),
  trash: TrashPlace,
  actions: z.array(TrashAction),
  /** Sum of freesBytes over the planned (dry run) or moved files; null if any is unknown. */
  predictedBytes: UnknownBytes,
  counts: z.object({
    planned: z.number().int().nonnegative(),
    moved: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
  }),
});
export type TrashReport = z.infer<typeof TrashReport>;

export const TrashInput = z.object({
  scanId: z.string().min(1),
  /** Only these groups; all groups when absent. */
  groupIds: z.array(z.string()).optional(),
  /** The file to keep per group id (one of its files); the scan's keeper otherwise. */
  keepers: z.record(z.string(), z.string()).optional(),
  /** Dry run unless true. */
  apply: z.boolean().default(false),
  /**
   * The caller's id for this apply as a job: its progress (files and bytes) goes out through
   * `job.event`, and jobs.cancel stops it between files; the call still returns the report.
   */
  jobId: JobId.optional(),
});

/** A file of a batch deleted from the Trash for good (the second, explicit step). */
export const EmptiedFile = z.object({
  original: z.string(),
  trashedPath: z.string(),
  predictedBytes: UnknownBytes,
  status: z.enum(['planned', 'deleted', 'skipped', 'failed']),
  reason: z.string().nullable(),
  /** ECANCELED when a cancel stopped the emptying before this file (it is still in the Trash). */
  code: z.literal('ECANCELED').optional(),
});
export type EmptiedFile = z.infer<typeof EmptiedFile>;

export const EmptyTrashReport = z.object({
  batchId: z.string(),
  dryRun: z.boolean(),
  files: z.array(EmptiedFile),
  predictedBytes: UnknownBytes,
  /** Free space of the volume after minus before; null in a dry run. */
  measuredFreedBytes: z.number().int().nullable(),
  counts: z.object({
    planned: z.number().int().nonnegative(),
    deleted: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
  }),
});
export type EmptyTrashReport = z.infer<typeof EmptyTrashReport>;

export const BatchIdField = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,64}$/, 'A batch id is letters, digits and dashes (from space.trash).');

export const SparseFile = z.object({
  path: z.string(),
  logicalBytes: Bytes,
  allocatedBytes: Bytes,
  holesSupported: z.boolean(),
  /** Data ranges; everything else is holes. */
  data: z.array(z.object({ offset: Bytes, length: Bytes })),
});
export type SparseFile = z.infer<typeof SparseFile>;

export const PunchReport = z.object({
  path: z.string(),
  /** Zero bytes found in whole blocks (what punching can free). */
  zeroBytes: Bytes,
  /** Of those, the bytes made into holes by this apply (0 in a dry run). */
  punchedBytes: Bytes,
  /** Why an apply stopped before it punched them all (another program opened the file); null when it did not. */
  stopped: z.string().nullable(),
  allocatedBefore: Bytes,
  allocatedAfter: Bytes,
  dryRun: z.boolean(),
  /** What people should know before relying on the holes. */
  warning: z.string(),
});
export type PunchReport = z.infer<typeof PunchReport>;

/** A large file that is not sparse but holds whole blocks of zeros punching would free. */
export const SparseCandidate = z.object({
  path: z.string(),
  allocatedBytes: Bytes,
  /** Whole blocks of zeros: what making them holes would free. */
  zeroBytes: Bytes,
});
export type SparseCandidate = z.infer<typeof SparseCandidate>;

const PathField = pathField('Give a path.');
const ScanId = z.object({ scanId: z.string().trim().min(1).max(200) });
/** A sparse listing's id, chosen by the caller: it is the listing's jobId too. */
const ListIdField = JobId;

/**
 * How far a sparse-file listing has got: first the walk (files and bytes seen), then each sparse
 * file's data/hole map is read (`describe`: `described` of `sparseFiles`). A search for sparse
 * candidates reports the same walk, then reads each large file for zeros (`read`: `described`
 * of `sparseFiles` large files read, time left from the bytes read).
 */
export const SparseListProgress = z.object({
  listId: z.string(),
  phase: z.enum(['walk', 'describe', 'read']),
  files: z.number().int().nonnegative(),
  bytes: Bytes,
  /** Sparse files the walk found; 0 until it is over. */
  sparseFiles: z.number().int().nonnegative(),
  described: z.number().int().nonnegative(),
  seconds: z.number().nonnegative(),
  /** From the rate of reading maps so far; null during the walk (its size is not known ahead). */
  secondsLeft: z.number().nonnegative().nullable(),
});
export type SparseListProgress = z.infer<typeof SparseListProgress>;

/** What a running scan reports, tagged with its scanId. */
export const SpaceEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), progress: ScanProgress }),
  /** The scan's figures with its first `firstGroupsPage` groups; space.groups gives the others. */
  z.object({
    type: z.literal('done'),
    scanId: z.string(),
    result: ScanResult,
    groupCount: z.number().int().nonnegative(),
  }),
  z.object({ type: z.literal('cancelled'), scanId: z.string() }),
  z.object({
    type: z.literal('failed'),
    scanId: z.string(),
    error: z.object({ code: z.string(), message: z.string() }),
  }),
]);
export type SpaceEvent = z.infer<typeof SpaceEvent>;

export const RecoveryStep = z.object({
  target: z.string(),
  outcome: z.enum(['rolled-back', 'completed', 'unchanged']),
  detail: z.string(),
});

export const spaceOperations = {
  /**
   * Starts a scan in the background as a job; it reports through `space.event` (and job.event)
   * and is kept for dedupe.
   */
  'space.scan': {
    input: ScanOptions.extend({
      /**
       * The caller's id for the scan, chosen before it starts so no event is missed: it is the
       * scanId and the jobId (jobs.cancel stops it). A new one is made when absent.
       */
      jobId: JobId.optional(),
    }),
    output: ScanId,
    guard: guard({ chosenPaths: ['path'] }),
  },
  /** jobs.cancel for a scan, under its old name: false when it is not running. */
  'space.cancel': { input: ScanId, output: z.object({ cancelled: z.boolean() }) },
  /**
   * The last scan kept of a folder (or, without a path, the last scan of any folder), with when it
   * finished; null when none is kept. Dedupe and Trash can act on it as on a new scan (every file
   * is checked unchanged before anything is done to it).
   */
  'space.lastScan': {
    input: z.object({ path: PathField.optional() }),
    output: ReopenedScan.nullable(),
  },
  /**
   * A page of a finished or kept scan's groups (`limit` of them from `offset`, at most 5,000),
   * read from the kept file for a kept scan: a scan of 300,000 groups is shown a page at a time.
   */
  'space.groups': {
    input: ScanId.extend({
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().min(0).max(firstGroupsPage).default(groupsPage),
    }),
    output: GroupsPage,
    guard: guard({ onScan: true }),
  },
  /** The result of a finished scan (null while it runs or when unknown). */
  'space.result': { input: ScanId, output: ScanResult.nullable() },
  /** Plans (dry run, the default) or applies clones for a finished scan. */
  'space.dedupe': {
    input: DedupeInput,
    output: DedupeReport,
    guard: guard({ onScan: true, review: ['scanId', 'groupIds', 'keepers'] }),
  },
  /**
   * DESTRUCTIVE (with apply): moves the chosen copies of a finished scan to the system's Trash,
   * each verified identical to the kept file just before; a dry run (the default) says per file
   * what deleting it would free. Refuses with ENOTRASH where no Trash is reachable.
   */
  'space.trash': {
    input: TrashInput,
    output: TrashReport,
    guard: guard({ onScan: true, review: ['scanId', 'groupIds', 'keepers'] }),
  },
  /**
   * DESTRUCTIVE (with apply): deletes for good exactly the files a space.trash batch moved to the
   * Trash (those still there unchanged), measuring the space freed on the volume.
   */
  'space.trash.empty': {
    input: z.object({
      batchId: BatchIdField,
      apply: z.boolean().default(false),
      /** With apply: the caller's job id; jobs.cancel stops it between files. */
      jobId: JobId.optional(),
    }),
    output: EmptyTrashReport,
    guard: guard({ review: ['batchId'] }),
  },
  /** Completes or rolls back a dedupe interrupted by a crash (also done before every dedupe). */
  'space.recover': { input: z.object({}).strict(), output: z.array(RecoveryStep) },
  /**
   * Sparse files under a folder (or the one file at `path`), largest saving first. With a
   * `listId` (the caller's), it reports through `space.sparse.progress` and can be cancelled.
   */
  'space.sparse.list': {
    input: z.object({ path: PathField, listId: ListIdField.optional() }),
    output: z.array(SparseFile),
    guard: guard({ chosenPaths: ['path'] }),
  },
  /** Stops a listing (or a candidates search) started with that listId; it then fails with ECANCELED. */
  'space.sparse.cancel': {
    input: z.object({ listId: ListIdField }),
    output: z.object({ cancelled: z.boolean() }),
  },
  /**
   * Large files under a folder that are not sparse but hold runs of zeros that punching would
   * free (each read in full), most first, with the warning that apps may write them back. With a
   * `listId`, it reports through `space.sparse.progress` and space.sparse.cancel stops it.
   */
  'space.sparse.candidates': {
    input: z.object({
      path: PathField,
      minBytes: Bytes.optional(),
      listId: ListIdField.optional(),
    }),
    output: z.object({ candidates: z.array(SparseCandidate), warning: z.string() }),
    guard: guard({ chosenPaths: ['path'] }),
  },
  'space.sparse.create': {
    input: z.object({ path: PathField, bytes: Bytes }),
    /** `warning`: the file is longer than its whole disk (allowed, never silent). */
    output: SparseFile.extend({ warning: z.string().nullable() }),
    guard: guard({ chosenPaths: ['path'] }),
  },
  /**
   * Turns whole blocks of zeros into holes (dry run unless apply). With a `jobId` (the caller's)
   * it reports its reading as job progress, and jobs.cancel stops it before any hole is made
   * (ECANCELED); once punching has begun it finishes, so the file is never left half done.
   */
  'space.sparse.punch': {
    input: z.object({
      path: PathField,
      apply: z.boolean().default(false),
      jobId: JobId.optional(),
    }),
    output: PunchReport,
    guard: guard({ chosenPaths: ['path'], review: ['path'] }),
  },
  'space.sparse.copy': {
    input: z.object({ from: PathField, to: PathField }),
    output: SparseFile,
    guard: guard({ chosenPaths: ['from', 'to'] }),
  },
} as const;

export const spaceEvents = {
  'space.event': SpaceEvent,
  'space.sparse.progress': SparseListProgress,
} as const;
