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
import { ScanOptions as ScanOptionsSchema } from '../../contract/space.js';
import type { NativeFileSharing } from '../../../native/index.js';
import { loadNative } from '../native/load.js';
import { contentHash, edgeKey, smallFileBytes } from './content.js';
import { groupsOf, mapLimit, refineGroups } from './groups.js';
import { groupSharing, type MemberStorage } from './sharing.js';
import { walkFolder, type WalkedFile } from './walk.js';

export interface ScanHooks {
  scanId?: string;
  signal?: AbortSignal;
  onProgress?: (progress: ScanProgress) => void;
}

const edgeConcurrency = 16;
const hashConcurrency = 4;
const sharingConcurrency = 8;
const progressIntervalMs = 100;

/** Storage facts of a file as the sharing analysis wants them; unknown when the OS refuses. */
export async function memberStorage(
  file: string,
): Promise<MemberStorage & { compressed: boolean | null }> {
  let facts: NativeFileSharing;
  try {
    facts = await loadNative().fileSharing(file);
  } catch {
    return {
      allocatedBytes: 0,
      extents: null,
      cloneId: null,
      privateBytes: null,
      compressed: null,
    };
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

async function describeGroup(
  files: WalkedFile[],
  hash: string,
  sharingSupported: boolean | null,
): Promise<DuplicateGroup> {
  const members = [...files].sort(byPreference);
  const storage = await mapLimit(members, sharingConcurrency, (f) => memberStorage(f.path));
  const sharing = groupSharing(storage);
  if (sharingSupported === false) {
    sharing.reclaimableBytes = 0;
    sharing.memberReclaimable = members.map(() => 0);
    sharing.note = noSharingNote;
  }
  const size = members[0]!.size;
  const compressed = storage.some((s) => s.compressed === true);
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

async function runScan(options: ScanOptions, hooks: ScanHooks): Promise<ScanResult> {
  const settings = ScanOptionsSchema.parse(options);
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
  const setPhase = (phase: ScanProgress['phase']): void => {
    state.phase = phase;
    emit(true);
  };

  emit(true);
  const walked = await walkFolder(settings.path, {
    ...settings,
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
  const edges = await refineGroups(
    bySize.filter((g) => g[0]!.size > smallFileBytes),
    (f) => edgeKey(f.path, f.size),
    edgeConcurrency,
    hooks.signal,
  );
  const toHash = [...small, ...edges.groups];
  state.bytesToHash = toHash.flat().reduce((sum, f) => sum + f.size, 0);
  hashStarted = performance.now();
  setPhase('hash');
  const hashed = await refineGroups(
    toHash,
    (f) =>
      contentHash(
        f.path,
        f.size,
        (bytes) => {
          state.bytesHashed += bytes;
          emit();
        },
        hooks.signal,
      ),
    hashConcurrency,
    hooks.signal,
  );
  state.secondsLeft = 0;
  setPhase('sharing');
  const native = loadNative();
  const probe = hashed.groups[0]?.[0]?.path;
  const sharingSupported = probe ? await native.sharingSupport(probe).catch(() => null) : null;
  const groups: DuplicateGroup[] = [];
  for (const files of hashed.groups) {
    hooks.signal?.throwIfAborted();
    groups.push(await describeGroup(files, hashed.keys.get(files[0]!)!, sharingSupported));
  }
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
    skipped: {
      ...walked.skipped,
      unreadable: walked.skipped.unreadable + edges.failed + hashed.failed,
    },
    groups,
    totals: spaceTotals(groups),
    sparse: walked.sparse,
  };
}
