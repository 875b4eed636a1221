/**
 * A kept scan brought up to date by an apply on it, so what is shown next is the folder as it now
 * is without scanning it again: copies turned into clones share their storage with the kept file
 * (the group's reclaimable bytes go down by what they were predicted to free, its shared bytes up
 * by as much), and copies moved to the Trash leave their group (a group left with one file is no
 * longer a group of copies). Groups the apply did not touch stay exactly as scanned.
 */
import { stat } from '../os-fs.js';
import { removableBytes } from '../../common/removable.js';
import { keptGroupsById, rewriteKept, type KeptScan } from './last-scan.js';
import type {
  DedupeReport,
  DuplicateFile,
  DuplicateGroup,
  ScanResult,
  SpaceTotals,
  TrashReport,
} from '../../contract/space.js';

/** The totals over `groups`, counted as the scan counts them (one unknown group makes a sum unknown). */
export function totalsOf(groups: readonly DuplicateGroup[]): SpaceTotals {
  const sum = (pick: (g: DuplicateGroup) => number | null): number | null =>
    groups.reduce<number | null>((total, g) => {
      const value = pick(g);
      return total === null || value === null ? null : total + value;
    }, 0);
  return {
    nominalBytes: groups.reduce((total, g) => total + g.nominalBytes, 0),
    sharedBytes: sum((g) => g.sharedBytes),
    reclaimableBytes: sum((g) => g.reclaimableBytes),
    unknownGroups: groups.filter((g) => g.reclaimableBytes === null).length,
  };
}

/**
 * The facts of a file the apply changed itself, read again, so a later apply on this scan finds
 * it as the scan says (its content is still checked again before anything is done to it).
 */
async function restated(file: DuplicateFile): Promise<DuplicateFile> {
  try {
    const now = await stat(file.path);
    return { ...file, ino: now.ino, size: now.size, mtimeMs: now.mtimeMs, ctimeMs: now.ctimeMs };
  } catch {
    return file; // gone meanwhile: the next apply says so for this file
  }
}

async function clonedGroup(
  group: DuplicateGroup,
  done: ReadonlyMap<string, number | null>,
  keeper: string,
): Promise<DuplicateGroup> {
  let freed: number | null = 0;
  const files: DuplicateFile[] = [];
  for (const file of group.files) {
    if (file.path === keeper) {
      files.push({ ...file, alreadyClone: false, reclaimableBytes: 0 });
      continue;
    }
    if (!done.has(file.path)) {
      files.push(file);
      continue;
    }
    const predicted = done.get(file.path) ?? null;
    freed = freed === null || predicted === null ? null : freed + predicted;
    files.push({ ...(await restated(file)), alreadyClone: true, reclaimableBytes: 0 });
  }
  const reclaimable =
    group.reclaimableBytes === null || freed === null
      ? null
      : Math.max(0, group.reclaimableBytes - freed);
  const shared =
    group.sharedBytes === null || freed === null
      ? null
      : Math.min(group.nominalBytes, group.sharedBytes + freed);
  return { ...group, keeper, files, reclaimableBytes: reclaimable, sharedBytes: shared };
}

function trashedGroup(
  group: DuplicateGroup,
  moved: ReadonlySet<string>,
  keeper: string,
): DuplicateGroup | null {
  const gone = group.files.filter((f) => moved.has(f.path));
  const files = group.files.filter((f) => !moved.has(f.path));
  if (files.length < 2) return null;
  const nominal = group.size * (files.length - 1);
  const lessBy = (bytes: number | null, pick: (f: DuplicateFile) => number | null) => {
    if (bytes === null) return null;
    let left = bytes;
    for (const file of gone) {
      const own = pick(file);
      if (own === null) return null;
      left -= own;
    }
    return Math.max(0, left);
  };
  const reclaimable = lessBy(group.reclaimableBytes, (f) => f.reclaimableBytes);
  return {
    ...group,
    keeper,
    files,
    nominalBytes: nominal,
    reclaimableBytes: reclaimable,
    sharedBytes: group.sharedBytes === null ? null : Math.min(group.sharedBytes, nominal),
  };
}

/** What an apply did to one file: the copy, its group and kept file, and what it freed. */
interface Changed {
  groupId: string;
  keeper: string;
  target: string;
  predictedBytes: number | null;
}

export type Applied =
  { action: 'clone'; report: DedupeReport } | { action: 'trash'; report: TrashReport };

/**
 * What an apply changed, by group: the ids of the groups it touched (a dry run, or one that did
 * nothing, touches none) and how each is after it (null: no longer a group of copies).
 */
export interface AppliedChanges {
  groupIds: ReadonlySet<string>;
  /** `group` (one of `groupIds`) as it is after the apply, with the files it moved out. */
  after(group: DuplicateGroup): Promise<{ group: DuplicateGroup | null; removed: number }>;
}

export function appliedChanges(applied: Applied): AppliedChanges {
  const changed: Changed[] = applied.report.dryRun
    ? []
    : applied.action === 'clone'
      ? applied.report.actions.filter((a) => a.status === 'done')
      : applied.report.actions
          .filter((a) => a.status === 'moved')
          .map((a) => ({ ...a, predictedBytes: a.freesBytes }));
  const byGroup = new Map<string, Changed[]>();
  for (const action of changed) {
    byGroup.set(action.groupId, [...(byGroup.get(action.groupId) ?? []), action]);
  }
  return {
    groupIds: new Set(byGroup.keys()),
    async after(group) {
      const actions = byGroup.get(group.id);
      if (!actions) return { group, removed: 0 };
      const keeper = actions[0]!.keeper;
      if (applied.action === 'clone') {
        const done = new Map(actions.map((a) => [a.target, a.predictedBytes] as const));
        return { group: await clonedGroup(group, done, keeper), removed: 0 };
      }
      const moved = new Set(actions.map((a) => a.target));
      return { group: trashedGroup(group, moved, keeper), removed: moved.size };
    },
  };
}

/**
 * The scan's figures after some of its groups changed from `before` to `group` (null: dropped),
 * its other groups as they were: counted from the old figures, not from every group. Undefined
 * where that cannot be told without every group: a sum that was unknown (some group's figure
 * unknown) and no unknown group is left, or old figures less than the groups they counted.
 */
export function figuresAfter(
  result: Pick<ScanResult, 'files' | 'bytes' | 'totals'>,
  changes: readonly { before: DuplicateGroup; group: DuplicateGroup | null; removed: number }[],
): Pick<ScanResult, 'files' | 'bytes' | 'totals'> | undefined {
  const olds = changes.map((c) => c.before);
  const news = changes.flatMap((c) => (c.group ? [c.group] : []));
  const [was, now] = [totalsOf(olds), totalsOf(news)];
  const unknownGroups = result.totals.unknownGroups - was.unknownGroups + now.unknownGroups;
  const moved = (pick: (t: SpaceTotals) => number | null): number | null | undefined => {
    const total = pick(result.totals);
    if (total === null) return unknownGroups > 0 ? null : undefined;
    const before = pick(was);
    const after = pick(now);
    return before === null || after === null ? null : Math.max(0, total - before + after);
  };
  const shared = moved((t) => t.sharedBytes);
  const reclaimable = moved((t) => t.reclaimableBytes);
  if (shared === undefined || reclaimable === undefined) return undefined;
  const nominal = result.totals.nominalBytes - was.nominalBytes + now.nominalBytes;
  // Figures that do not add up (less than the groups they count) are counted again whole.
  if (nominal < 0) return undefined;
  const removedFiles = changes.reduce((sum, c) => sum + c.removed, 0);
  const removedBytes = changes.reduce((sum, c) => sum + c.before.size * c.removed, 0);
  const { removableBytes: removable } = result.totals;
  return {
    files: result.files - removedFiles,
    bytes: Math.max(0, result.bytes - removedBytes),
    totals: {
      ...result.totals,
      nominalBytes: nominal,
      sharedBytes: shared,
      reclaimableBytes: reclaimable,
      unknownGroups,
      ...(removable === undefined
        ? {}
        : {
            removableBytes:
              removable -
              olds.reduce((sum, g) => sum + removableBytes(g), 0) +
              news.reduce((sum, g) => sum + removableBytes(g), 0),
          }),
    },
  };
}

/** `result` as it is after `applied` (a dry run changes nothing). */
export async function scanAfterApply(result: ScanResult, applied: Applied): Promise<ScanResult> {
  const changes = appliedChanges(applied);
  if (changes.groupIds.size === 0) return result;
  const groups: DuplicateGroup[] = [];
  let removedFiles = 0;
  let removedBytes = 0;
  for (const group of result.groups) {
    const { group: left, removed } = await changes.after(group);
    removedFiles += removed;
    removedBytes += group.size * removed;
    if (left) groups.push(left);
  }
  return {
    ...result,
    files: result.files - removedFiles,
    bytes: Math.max(0, result.bytes - removedBytes),
    groups,
    totals: totalsOf(groups),
  };
}

/**
 * A kept scan's document rewritten after an apply without holding its groups: the groups the
 * apply touched are read and changed, the others copied as they are, the figures counted from
 * the old ones. False where that cannot be done (its figures need every group, the document
 * was replaced or could not be written): the caller then reads it whole.
 */
export async function rewriteKeptAfterApply(
  kept: KeptScan,
  changes: AppliedChanges,
): Promise<boolean> {
  try {
    const touched = await keptGroupsById(kept, changes.groupIds);
    const changed = await Promise.all(
      touched.map(async (before) => ({ before, ...(await changes.after(before)) })),
    );
    const figures = figuresAfter(kept.head, changed);
    if (!figures) return false;
    await rewriteKept(
      kept,
      new Map(changed.map(({ before, group }) => [before.id, group] as const)),
      { ...kept.head, ...figures },
    );
    return true;
  } catch {
    return false;
  }
}
