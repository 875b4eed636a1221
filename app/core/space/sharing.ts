/**
 * What turning a group of identical files into clones would really free, from how the file system
 * says their data is stored. Nothing here guesses: where the OS cannot tell, the answer is null.
 */
import {
  containsAll,
  coveredBytes,
  mergeRanges,
  segmentsByCover,
  type ByteRange,
} from './ranges.js';

export interface PhysicalExtent {
  physical: number;
  length: number;
  /** The file system flags these blocks as referenced more than once. */
  shared: boolean;
}

/** Storage facts of one member of a group of identical files. */
export interface MemberStorage {
  allocatedBytes: number;
  /** Physical extents (Linux FIEMAP, Windows ReFS refcounted extents); null when the OS has no map. */
  extents: PhysicalExtent[] | null;
  /** macOS: equal clone ids are full clones of each other. */
  cloneId: string | null;
  /** macOS: bytes only this file holds. */
  privateBytes: number | null;
}

export interface GroupSharing {
  /** Index of the member the others should share storage with. */
  keeperIndex: number;
  /** Bytes of the copies (all but the keeper) already not taking space of their own. */
  sharedBytes: number | null;
  reclaimableBytes: number | null;
  /** Per member: what making it a clone of the keeper frees (0 for the keeper), in order. */
  memberReclaimable: (number | null)[];
  /** Per member: it already shares all its storage with the keeper. */
  memberAlreadyClone: (boolean | null)[];
  note: string | null;
}

const unknownNote =
  'This file system does not say which files share storage, so savings are unknown until measured.';
const outsideNote =
  'Some blocks are also shared with files outside this group (other clones or snapshots); they are not counted as reclaimable.';

function physicalRanges(extents: readonly PhysicalExtent[]): ByteRange[] {
  return mergeRanges(extents.map((e) => ({ start: e.physical, end: e.physical + e.length })));
}

/**
 * The common case, answered without the sweep: no extent flagged shared and no two extents (of
 * any members) overlapping, i.e. plain copies. Then nothing is shared, each copy frees its own
 * bytes, and the keeper is the first member holding the fewest bytes. The result is exactly what
 * sweepExtents gives for such members; null when the members are not like that.
 */
function fromSeparateExtents(members: readonly MemberStorage[]): GroupSharing | null {
  const held = members.map(() => 0);
  const starts: number[] = [];
  const ends: number[] = [];
  for (let member = 0; member < members.length; member += 1) {
    for (const e of members[member]!.extents!) {
      if (e.length <= 0) continue;
      if (e.shared) return null;
      held[member]! += e.length;
      starts.push(e.physical);
      ends.push(e.physical + e.length);
    }
  }
  if (starts.length > 1) {
    const order = starts.map((_, i) => i).sort((a, b) => starts[a]! - starts[b]!);
    for (let k = 1; k < order.length; k += 1) {
      if (starts[order[k]!]! < ends[order[k - 1]!]!) return null;
    }
  }
  let keeperIndex = 0;
  held.forEach((bytes, index) => {
    if (bytes < held[keeperIndex]!) keeperIndex = index;
  });
  const total = held.reduce((sum, bytes) => sum + bytes, 0);
  return {
    keeperIndex,
    sharedBytes: 0,
    reclaimableBytes: total - held[keeperIndex]!,
    memberReclaimable: held.map((bytes, index) => (index === keeperIndex ? 0 : bytes)),
    // A copy without storage lies within the keeper's (as the sweep's containsAll says).
    memberAlreadyClone: held.map((bytes, index) => index !== keeperIndex && bytes === 0),
    note: null,
  };
}

/** Linux: which physical blocks each member references, and which are referenced elsewhere too. */
function fromExtents(members: readonly MemberStorage[]): GroupSharing {
  return fromSeparateExtents(members) ?? sweepExtents(members);
}

/** The general case: a sweep over every member's physical ranges. */
export function sweepExtents(members: readonly MemberStorage[]): GroupSharing {
  const extents = members.map((m) => m.extents!);
  const segments = segmentsByCover(
    extents.flatMap((list, member) =>
      list.map((e) => ({
        range: { start: e.physical, end: e.physical + e.length },
        label: { member, shared: e.shared },
      })),
    ),
  );
  // A block flagged shared but referenced by only one member here is held by something outside
  // the group: cloning this group cannot free it.
  const pieces = segments.map((s) => {
    const owners = [...new Set(s.labels.map((l) => l.member))];
    const flagged = s.labels.some((l) => l.shared);
    return {
      bytes: s.range.end - s.range.start,
      owners,
      heldOutside: flagged && owners.length < 2,
    };
  });
  const reclaimFor = (keeper: number) =>
    pieces
      .filter((p) => !p.owners.includes(keeper) && !p.heldOutside)
      .reduce((sum, p) => sum + p.bytes, 0);
  let keeperIndex = 0;
  let best = -1;
  members.forEach((_, index) => {
    const reclaim = reclaimFor(index);
    if (reclaim > best) {
      best = reclaim;
      keeperIndex = index;
    }
  });
  // Attribute each freed piece to the first copy (in order) that references it.
  const memberReclaimable = members.map(() => 0);
  let outside = false;
  for (const piece of pieces) {
    if (piece.owners.includes(keeperIndex)) continue;
    if (piece.heldOutside) {
      outside = true;
      continue;
    }
    const first = Math.min(...piece.owners);
    memberReclaimable[first]! += piece.bytes;
  }
  const keeperRanges = physicalRanges(extents[keeperIndex]!);
  const memberAlreadyClone = extents.map(
    (list, index) => index !== keeperIndex && containsAll(keeperRanges, physicalRanges(list)),
  );
  const copiesBytes = extents.reduce(
    (sum, list, index) => (index === keeperIndex ? sum : sum + coveredBytes(physicalRanges(list))),
    0,
  );
  return {
    keeperIndex,
    sharedBytes: copiesBytes - best,
    reclaimableBytes: best,
    memberReclaimable,
    memberAlreadyClone,
    note: outside ? outsideNote : null,
  };
}

/** macOS: clone ids say which members are full clones; private size says what each one holds alone. */
function fromCloneFacts(members: readonly MemberStorage[]): GroupSharing {
  const counts = new Map<string, number>();
  for (const m of members) if (m.cloneId) counts.set(m.cloneId, (counts.get(m.cloneId) ?? 0) + 1);
  let keeperIndex = 0;
  let most = 0;
  members.forEach((m, index) => {
    const count = m.cloneId ? counts.get(m.cloneId)! : 0;
    if (count > most) {
      most = count;
      keeperIndex = index;
    }
  });
  const keeperClone = members[keeperIndex]!.cloneId;
  const memberAlreadyClone = members.map(
    (m, index) => index !== keeperIndex && keeperClone !== null && m.cloneId === keeperClone,
  );
  const memberReclaimable = members.map((m, index) =>
    index === keeperIndex || memberAlreadyClone[index] ? 0 : m.privateBytes,
  );
  const known = memberReclaimable.every((r) => r !== null);
  const reclaimable = known ? memberReclaimable.reduce<number>((s, r) => s + r!, 0) : null;
  const copiesBytes = members.reduce(
    (sum, m, index) => (index === keeperIndex ? sum : sum + m.allocatedBytes),
    0,
  );
  return {
    keeperIndex,
    sharedBytes: reclaimable === null ? null : Math.max(0, copiesBytes - reclaimable),
    reclaimableBytes: reclaimable,
    memberReclaimable,
    memberAlreadyClone,
    note: known ? null : unknownNote,
  };
}

/**
 * The keeper, bytes already shared and bytes reclaimable for a group of identical files. Members
 * are in order of preference for keeping (the first wins ties).
 */
export function groupSharing(members: readonly MemberStorage[]): GroupSharing {
  if (members.length > 0 && members.every((m) => m.extents !== null)) return fromExtents(members);
  if (members.length > 0 && members.every((m) => m.privateBytes !== null || m.cloneId !== null)) {
    return fromCloneFacts(members);
  }
  return {
    keeperIndex: 0,
    sharedBytes: null,
    reclaimableBytes: null,
    memberReclaimable: members.map((_, index) => (index === 0 ? 0 : null)),
    memberAlreadyClone: members.map((_, index) => (index === 0 ? false : null)),
    note: unknownNote,
  };
}
