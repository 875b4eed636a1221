/**
 * A space scan: walk a folder, find files with identical content (size → head/tail key → full
 * hash), and ask the file system how much of each group is already shared and what cloning would
 * really free.
 */
import { randomUUID } from 'node:crypto';
import { PlumbError } from '../../contract/errors.js';
import type {
  DuplicateGroup,
  ScanOptions,
  ScanProgress,
  ScanResult,
  SpaceTotals,
} from '../../contract/space.js';
import type { NativeFileSharing, NativeSharingColumns } from '../../../native/index.js';
import { loadNative } from '../native/load.js';
import { edgeBytes, smallFileBytes } from './content.js';
import { cancelFollowing, refineByDigest } from './digests.js';
import { groupsOf } from './groups.js';
import { groupSharing, type MemberStorage, type PhysicalExtent } from './sharing.js';
import { walkFolder, type WalkedFile } from './walk.js';

export interface ScanHooks {
  scanId?: string;
  signal?: AbortSignal;
  onProgress?: (progress: ScanProgress) => void;
}

/** Files whose storage is asked about at once (metadata only: FIEMAP and the like). */
const sharingThreads = 4;
const progressIntervalMs = 100;

type StorageFacts = MemberStorage & { compressed: boolean | null };

/** What is known of a file whose storage facts could not be asked: nothing. */
function unknownStorage(): StorageFacts {
  return { allocatedBytes: 0, extents: null, cloneId: null, privateBytes: null, compressed: null };
}

/** Storage facts of a file as the sharing analysis wants them; unknown when the OS refuses. */
export async function memberStorage(file: string): Promise<StorageFacts> {
  let facts: NativeFileSharing;
  try {
    facts = await loadNative().fileSharing(file);
  } catch {
    return unknownStorage();
  }
  return {
    allocatedBytes: facts.allocatedBytes,
    extents: facts.extents,
    cloneId: facts.cloneId,
    privateBytes: facts.privateBytes,
    compressed: facts.compressed,
  };
}

/** Sums group figures; a total is unknown when any group's figure is. */
export function spaceTotals(groups: readonly DuplicateGroup[]): SpaceTotals {
  const unknown = groups.filter((g) => g.reclaimableBytes === null).length;
  const sum = (pick: (g: DuplicateGroup) => number | null): number | null =>
    groups.some((g) => pick(g) === null) ? null : groups.reduce((s, g) => s + pick(g)!, 0);
  return {
    nominalBytes: groups.reduce((s, g) => s + g.nominalBytes, 0),
    sharedBytes: sum((g) => g.sharedBytes),
    reclaimableBytes: sum((g) => g.reclaimableBytes),
    unknownGroups: unknown,
  };
}

/** Largest reclaimable first; groups whose savings are unknown after, by nominal size. */
export function compareGroups(a: DuplicateGroup, b: DuplicateGroup): number {
  if (a.reclaimableBytes !== null && b.reclaimableBytes !== null) {
    return b.reclaimableBytes - a.reclaimableBytes || b.nominalBytes - a.nominalBytes;
  }
  if (a.reclaimableBytes !== null) return -1;
  if (b.reclaimableBytes !== null) return 1;
  return b.nominalBytes - a.nominalBytes;
}

/** Older files first (the likely original), then by path, so the keeper is predictable. */
function byPreference(a: WalkedFile, b: WalkedFile): number {
  return a.mtimeMs - b.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

const noSharingNote =
  'This file system cannot share storage between files (no clones), so cloning frees nothing here.';

/** File `index`'s storage facts from the columns of one fileSharingMany answer. */
function storageAt(answers: NativeSharingColumns, index: number): StorageFacts {
  if (answers.failed[index] === 1) return unknownStorage();
  let extents: PhysicalExtent[] | null = null;
  if (answers.hasExtents[index] === 1) {
    extents = [];
    const rows = answers.extents;
    for (let row = answers.extentStarts[index]!; row < answers.extentStarts[index + 1]!; row += 1) {
      extents.push({
        physical: rows[row * 3]!,
        length: rows[row * 3 + 1]!,
        shared: rows[row * 3 + 2] === 1,
      });
    }
  }
  const privateBytes = answers.privateBytes[index]!;
  const compressed = answers.compressed[index];
  return {
    allocatedBytes: answers.allocatedBytes[index]!,
    extents,
    cloneId: answers.cloneIds[index] ?? null,
    privateBytes: Number.isNaN(privateBytes) ? null : privateBytes,
    compressed: compressed === 2 ? null : compressed === 1,
  };
}

/**
 * Storage facts of every member of every group, asked in one native call (a few threads, answers
 * in columns); a file that cannot be asked is unknown, as with memberStorage.
 */
async function storageOfGroups(
  groups: readonly WalkedFile[][],
  signal: AbortSignal | undefined,
): Promise<StorageFacts[][]> {
  const flat = groups.flat();
  signal?.throwIfAborted();
  const { cancel, release } = cancelFollowing(signal);
  let answers: NativeSharingColumns;
  try {
    answers = await loadNative().fileSharingMany(
      flat.map((f) => f.path),
      { threads: sharingThreads, cancel },
    );
  } finally {
    release();
  }
  let offset = 0;
  return groups.map((members) => {
    const start = offset;
    offset += members.length;
    return members.map((_, i) => storageAt(answers, start + i));
  });
}

/**
 * On a file system that cannot share storage (no clones), nothing is shared (hard links are
 * counted once by the walk) and cloning frees nothing: the per-file storage queries are skipped.
 */
function unsharedGroup(count: number): ReturnType<typeof groupSharing> {
  return {
    keeperIndex: 0,
    sharedBytes: 0,
    reclaimableBytes: 0,
    memberReclaimable: new Array<number>(count).fill(0),
    memberAlreadyClone: new Array<boolean>(count).fill(false),
    note: noSharingNote,
  };
}

function describeGroup(
  members: WalkedFile[],
  hash: string,
  storage: StorageFacts[] | null,
): DuplicateGroup {
  // No storage facts: asked for none, as the file system cannot share storage.
  const sharing = storage ? groupSharing(storage) : unsharedGroup(members.length);
  const size = members[0]!.size;
  const compressed = storage?.some((s) => s.compressed === true) ?? false;
  return {
    id: `${size}-${hash.slice(0, 16)}`,
    size,
    keeper: members[sharing.keeperIndex]!.path,
    files: members.map((f, index) => ({
      path: f.path,
      size: f.size,
      ino: f.ino,
      mtimeMs: f.mtimeMs,
      ctimeMs: f.ctimeMs,
      links: f.links,
      reclaimableBytes: sharing.memberReclaimable[index] ?? null,
      alreadyClone: sharing.memberAlreadyClone[index] ?? null,
    })),
    nominalBytes: size * (members.length - 1),
    // Block-rounded storage can exceed the nominal (logical) bytes; never claim more than nominal.
    sharedBytes:
      sharing.sharedBytes === null
        ? null
        : Math.min(sharing.sharedBytes, size * (members.length - 1)),
    reclaimableBytes: sharing.reclaimableBytes,
    note: compressed
      ? 'Some copies are compressed by the file system; cloning them would lose that, so they are skipped.'
      : sharing.note,
  };
}

export async function scanFolder(options: ScanOptions, hooks: ScanHooks = {}): Promise<ScanResult> {
  try {
    return await runScan(options, hooks);
  } catch (error) {
    if (hooks.signal?.aborted) {
      throw new PlumbError('ECANCELED', 'The scan was cancelled.', { cause: error });
    }
    throw error;
  }
}

/**
 * The options with their defaults, checked as the contract's ScanOptions schema checks them (the
 * same rules, without zod: `plumb space scan` starts faster without loading it).
 */
export function scanSettings(options: ScanOptions): Required<ScanOptions> {
  const invalid = (message: string): PlumbError => new PlumbError('EINVAL', message);
  if (typeof options.path !== 'string') throw invalid('Give a folder path.');
  const folder = options.path.trim();
  if (folder.length === 0) throw invalid('Give a folder path.');
  if (folder.length > 4096) throw invalid('The folder path is longer than 4096 characters.');
  const minBytes = options.minBytes ?? 1;
  if (!Number.isSafeInteger(minBytes) || minBytes < 0) {
    throw invalid('minBytes must be a whole number of bytes, 0 or more.');
  }
  const flag = (name: keyof ScanOptions, value: boolean | undefined): boolean => {
    if (value === undefined) return true;
    if (typeof value !== 'boolean') throw invalid(`${name} must be true or false.`);
    return value;
  };
  return {
    path: folder,
    minBytes,
    includeHidden: flag('includeHidden', options.includeHidden),
    skipPackages: flag('skipPackages', options.skipPackages),
    skipCloudFolders: flag('skipCloudFolders', options.skipCloudFolders),
  };
}

async function runScan(options: ScanOptions, hooks: ScanHooks): Promise<ScanResult> {
  const settings = scanSettings(options);
  const scanId = hooks.scanId ?? randomUUID();
  const started = performance.now();
  const state: ScanProgress = {
    scanId,
    phase: 'walk',
    files: 0,
    bytes: 0,
    bytesToHash: 0,
    bytesHashed: 0,
    seconds: 0,
    secondsLeft: null,
  };
  let lastEmit = 0;
  let hashStarted = 0;
  const emit = (force = false): void => {
    const now = performance.now();
    if (!hooks.onProgress || (!force && now - lastEmit < progressIntervalMs)) return;
    lastEmit = now;
    state.seconds = (now - started) / 1000;
    if (state.phase === 'hash' && state.bytesHashed > 0) {
      const rate = state.bytesHashed / ((now - hashStarted) / 1000);
      state.secondsLeft = Math.max(0, (state.bytesToHash - state.bytesHashed) / rate);
    }
    hooks.onProgress({ ...state });
  };
  const stageSeconds = { walk: 0, compare: 0, hash: 0, sharing: 0 };
  let stageStarted = started;
  const setPhase = (phase: ScanProgress['phase']): void => {
    const now = performance.now();
    if (state.phase !== 'done') stageSeconds[state.phase] += (now - stageStarted) / 1000;
    stageStarted = now;
    state.phase = phase;
    emit(true);
  };

  emit(true);
  const walked = await walkFolder(settings.path, {
    ...settings,
    sameSizeOnly: true,
    signal: hooks.signal,
    onProgress: (files, bytes) => {
      state.files = files;
      state.bytes = bytes;
      emit();
    },
  });
  state.files = walked.fileCount;
  state.bytes = walked.byteCount;

  // Same size first; small files are hashed whole, larger ones compared at both ends first.
  const bySize = groupsOf(walked.files, (f) => f.size);
  const small = bySize.filter((g) => g[0]!.size <= smallFileBytes);
  setPhase('compare');
  const edges = await refineByDigest(
    bySize.filter((g) => g[0]!.size > smallFileBytes),
    (f) => f.path,
    { edgeBytes, signal: hooks.signal },
  );
  const toHash = [...small, ...edges.groups];
  state.bytesToHash = toHash.reduce((sum, g) => sum + g.length * g[0]!.size, 0);
  hashStarted = performance.now();
  setPhase('hash');
  const hashed = await refineByDigest(toHash, (f) => f.path, {
    signal: hooks.signal,
    onBytes: (bytes) => {
      state.bytesHashed = bytes;
      emit();
    },
  });
  state.bytesHashed = state.bytesToHash;
  state.secondsLeft = 0;
  setPhase('sharing');
  const native = loadNative();
  const probe = hashed.groups[0]?.[0]?.path;
  const sharingSupported = probe ? await native.sharingSupport(probe).catch(() => null) : null;
  const ordered = hashed.groups.map((files) => [...files].sort(byPreference));
  const storage = sharingSupported === false ? null : await storageOfGroups(ordered, hooks.signal);
  const groups = ordered.map((members, index) =>
    describeGroup(members, hashed.digests[index]!, storage ? storage[index]! : null),
  );
  groups.sort(compareGroups);
  setPhase('done');
  const volume = await native.volumeInfo(walked.root).catch(() => null);
  return {
    scanId,
    root: walked.root,
    fsType: volume?.fsType ?? null,
    sharingSupported,
    files: walked.fileCount,
    bytes: walked.byteCount,
    seconds: (performance.now() - started) / 1000,
    stageSeconds,
    skipped: {
      ...walked.skipped,
      unreadable: walked.skipped.unreadable + edges.failed + hashed.failed,
    },
    groups,
    totals: spaceTotals(groups),
    sparse: walked.sparse,
  };
}
