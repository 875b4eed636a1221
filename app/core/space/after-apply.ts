/**
 * A kept scan brought up to date by an apply on it, so what is shown next is the folder as it now
 * is without scanning it again: copies turned into clones share their storage with the kept file
 * (the group's reclaimable bytes go down by what they were predicted to free, its shared bytes up
 * by as much), and copies moved to the Trash leave their group (a group left with one file is no
 * longer a group of copies). Groups the apply did not touch stay exactly as scanned.
 */
import { stat } from '../os-fs.js';
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

/** `result` as it is after `applied` (a dry run changes nothing). */
export async function scanAfterApply(
  result: ScanResult,
  applied: { action: 'clone'; report: DedupeReport } | { action: 'trash'; report: TrashReport },
): Promise<ScanResult> {
  if (applied.report.dryRun) return result;
  const changed: Changed[] =
    applied.action === 'clone'
      ? applied.report.actions.filter((a) => a.status === 'done')
      : applied.report.actions
          .filter((a) => a.status === 'moved')
          .map((a) => ({ ...a, predictedBytes: a.freesBytes }));
  if (changed.length === 0) return result;
  const byGroup = new Map<string, Changed[]>();
  for (const action of changed) {
    byGroup.set(action.groupId, [...(byGroup.get(action.groupId) ?? []), action]);
  }
  const groups: DuplicateGroup[] = [];
  let removedFiles = 0;
  let removedBytes = 0;
  for (const group of result.groups) {
    const actions = byGroup.get(group.id);
    if (!actions) {
      groups.push(group);
      continue;
    }
    const keeper = actions[0]!.keeper;
    if (applied.action === 'clone') {
      const done = new Map(actions.map((a) => [a.target, a.predictedBytes] as const));
      groups.push(await clonedGroup(group, done, keeper));
    } else {
      const moved = new Set(actions.map((a) => a.target));
      removedFiles += moved.size;
      removedBytes += group.size * moved.size;
      const left = trashedGroup(group, moved, keeper);
      if (left) groups.push(left);
    }
  }
  return {
    ...result,
    files: result.files - removedFiles,
    bytes: Math.max(0, result.bytes - removedBytes),
    groups,
    totals: totalsOf(groups),
  };
}
