/**
 * What the duplicates view says: group order, the three totals in plain words, what a selection
 * would change, and the prediction beside the measurement. `null` bytes always read "unknown".
 */
import type {
  DedupeMethod,
  DedupeReport,
  DuplicateGroup,
  ScanProgress,
  SparseListProgress,
  SpaceTotals,
  TrashReport,
} from '../../../../app/contract/space.js';
import { alreadySharedCode } from '../../../../app/common/space-codes.js';
import { formatBytes, formatDuration } from '../../../../app/common/format.js';
import { removableBytes as scanRemovableBytes } from '../../../../app/common/removable.js';

export const unknownText = 'Unknown';

export function bytesOrUnknown(bytes: number | null): string {
  return bytes === null ? unknownText : formatBytes(bytes);
}

/** Largest reclaimable first; groups the OS could not measure after all known ones, by nominal size. */
export function sortGroups(groups: readonly DuplicateGroup[]): DuplicateGroup[] {
  return [...groups].sort((a, b) => {
    if (a.reclaimableBytes === null || b.reclaimableBytes === null) {
      if (a.reclaimableBytes !== b.reclaimableBytes) return a.reclaimableBytes === null ? 1 : -1;
    } else if (a.reclaimableBytes !== b.reclaimableBytes) {
      return b.reclaimableBytes - a.reclaimableBytes;
    }
    return b.nominalBytes - a.nominalBytes || a.keeper.localeCompare(b.keeper);
  });
}

export interface TotalLine {
  id: 'nominal' | 'shared' | 'reclaimable';
  label: string;
  value: string;
  explanation: string;
  /** Coloured as a saving only when there is one: a 0 B or unknown figure is not good news. */
  tone: 'saving' | 'neutral';
}

/**
 * What acting on each group frees, by group id, for the current keep choices, as the dry run
 * counts it (the figure its confirmation gives, from the same report): the planned copies' bytes,
 * cloned (their own blocks) or moved to the Trash (their allocated sizes). A group with a copy the
 * system cannot measure is left out.
 */
export type PlanFrees = ReadonlyMap<string, number>;

export function planFreesOf(plan: DedupeReport | TrashReport): PlanFrees {
  const frees = new Map<string, number | null>();
  for (const action of plan.actions) {
    if (!frees.has(action.groupId)) frees.set(action.groupId, 0);
    if (action.status !== 'planned') continue;
    const bytes = 'freesBytes' in action ? action.freesBytes : action.predictedBytes;
    const sum = frees.get(action.groupId)!;
    frees.set(action.groupId, sum === null || bytes === null ? null : sum + bytes);
  }
  return new Map([...frees].filter((entry): entry is [string, number] => entry[1] !== null));
}

/**
 * The scan's totals with each group's reclaimable bytes (over every group, `groups`) as the dry
 * run of the current keep choices counts them, where it has.
 */
export function plannedTotals(
  totals: SpaceTotals,
  groups: readonly DuplicateGroup[],
  frees: PlanFrees | null,
): SpaceTotals {
  if (!frees || totals.reclaimableBytes === null) return totals;
  let reclaimable = totals.reclaimableBytes;
  for (const group of groups) {
    const planned = frees.get(group.id);
    if (planned !== undefined && group.reclaimableBytes !== null)
      reclaimable += planned - group.reclaimableBytes;
  }
  return { ...totals, reclaimableBytes: reclaimable };
}

/** What cloning a group's copies frees: the dry run's figure when `frees` has it, else the scan's. */
export function reclaimableOf(group: DuplicateGroup, frees?: PlanFrees | null): number | null {
  return frees?.get(group.id) ?? group.reclaimableBytes;
}

/**
 * What removing a group's copies frees: the Trash's own figure when `frees` has it; else, from
 * the scan alone, about each copy's size, except a name of a file with other names (a hard link),
 * which frees nothing.
 */
export function removableBytes(group: DuplicateGroup, frees?: PlanFrees | null): number {
  return frees?.get(group.id) ?? scanRemovableBytes(group);
}

/** Whether every group's figure is the dry run's own (not estimated from the scan). */
export function planFiguresExact(
  groups: readonly DuplicateGroup[],
  frees: PlanFrees | null | undefined,
): boolean {
  return !!frees && groups.every((g) => frees.has(g.id));
}

/**
 * The three totals, each with a sentence saying what it means and why it may differ. On a file
 * system without clones the third is what moving the copies to the Trash (then emptying it) frees:
 * of `groups` (those shown), or the scan's own total when `scanTotal` (no filter leaves any out,
 * but a scan shown a page at a time has not loaded them all).
 */
export function totalLines(
  totals: SpaceTotals,
  sharingSupported: boolean | null,
  groups: readonly DuplicateGroup[] = [],
  frees: PlanFrees | null = null,
  scanTotal = false,
): TotalLine[] {
  const partly =
    totals.unknownGroups > 0 && totals.reclaimableBytes !== null
      ? ` The system could not tell for ${totals.unknownGroups} ${totals.unknownGroups === 1 ? 'group' : 'groups'}, left out here.`
      : '';
  const removable =
    scanTotal && totals.removableBytes !== undefined
      ? totals.removableBytes
      : groups.reduce((sum, g) => sum + removableBytes(g, frees), 0);
  const third: Omit<TotalLine, 'id' | 'tone'> =
    sharingSupported === false
      ? {
          label: 'Freed by the Trash',
          // The scan's own total (groups not all loaded) is from file sizes: about.
          value:
            !scanTotal && planFiguresExact(groups, frees)
              ? formatBytes(removable)
              : `About ${formatBytes(removable)}`,
          explanation:
            'This disk cannot clone, so copies can only be removed: moved to the Trash, each checked identical to the copy that stays. The space comes back when they are deleted from the Trash; hard links free nothing.',
        }
      : {
          label: 'Reclaimable',
          value: bytesOrUnknown(totals.reclaimableBytes),
          explanation:
            totals.reclaimableBytes === null
              ? 'The system does not say which copies already share storage, so Plumb will not guess what cloning would free. The space freed is measured when you apply.'
              : `What turning the copies into clones would really free: copies that already share storage count for nothing.${partly}`,
        };
  const thirdBytes = sharingSupported === false ? removable : totals.reclaimableBytes;
  return [
    {
      id: 'nominal',
      label: 'Duplicate copies',
      value: formatBytes(totals.nominalBytes),
      explanation:
        'The size of every extra copy added up — what tools that delete duplicates would claim. Clones already take no extra space, so this overstates the saving.',
      tone: 'neutral',
    },
    {
      id: 'shared',
      label: 'Already shared',
      value: bytesOrUnknown(totals.sharedBytes),
      explanation:
        totals.sharedBytes === null
          ? 'The system does not report which files share storage here, so this is unknown rather than zero.'
          : 'Of those copies, the bytes already stored only once (clones of each other). Cloning them again frees nothing.',
      tone: 'neutral',
    },
    {
      id: 'reclaimable',
      ...third,
      tone: thirdBytes !== null && thirdBytes > 0 ? 'saving' : 'neutral',
    },
  ];
}

export interface SelectionSummary {
  groups: number;
  /** Copies the action would change (cloned, or moved to the Trash). */
  copies: number;
  /** Copies left alone because they already share all their storage with the keeper. */
  alreadyClones: number;
  /** Predicted bytes freed over the groups that know; null when none know. */
  reclaimableBytes: number | null;
  /** Selected groups whose saving the system could not predict. */
  unknownGroups: number;
}

/**
 * What acting on the selected groups would change, counted as the confirmation counts it: for
 * clones, copies already sharing all their storage with the keeper are left out; for the Trash
 * (`mode` 'trash'), every copy moves and the saving is what removing them frees.
 */
export function summariseSelection(
  groups: readonly DuplicateGroup[],
  selected: ReadonlySet<string>,
  mode: 'clone' | 'trash' = 'clone',
  frees: PlanFrees | null = null,
): SelectionSummary {
  const chosen = groups.filter((g) => selected.has(g.id));
  const copies = chosen.flatMap((g) => g.files.filter((f) => f.path !== g.keeper));
  if (mode === 'trash') {
    return {
      groups: chosen.length,
      copies: copies.length,
      alreadyClones: 0,
      reclaimableBytes: chosen.reduce((sum, g) => sum + removableBytes(g, frees), 0),
      unknownGroups: 0,
    };
  }
  const known = chosen.filter((g) => reclaimableOf(g, frees) !== null);
  const alreadyClones = copies.filter((f) => f.alreadyClone === true).length;
  return {
    groups: chosen.length,
    copies: copies.length - alreadyClones,
    alreadyClones,
    reclaimableBytes: known.length
      ? known.reduce((sum, g) => sum + reclaimableOf(g, frees)!, 0)
      : null,
    unknownGroups: chosen.length - known.length,
  };
}

export function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

export function selectionText(summary: SelectionSummary): string {
  if (summary.groups === 0) return 'No groups selected.';
  const saving =
    summary.reclaimableBytes === null
      ? 'saving unknown until measured'
      : `about ${formatBytes(summary.reclaimableBytes)} to free${summary.unknownGroups ? ` (${plural(summary.unknownGroups, 'group', 'groups')} unknown)` : ''}`;
  const clones = summary.alreadyClones
    ? ` (${plural(summary.alreadyClones, 'other is already a clone', 'others are already clones')})`
    : '';
  return `${plural(summary.groups, 'group', 'groups')}, ${plural(summary.copies, 'copy', 'copies')}${clones} · ${saving}`;
}

export const methodNames: Record<DedupeMethod, string> = {
  'dedupe-range': 'Shared by the system, byte for byte',
  'clone-rename': 'Clone, verify, then rename',
};

export const methodExplanations: Record<DedupeMethod, string> = {
  'dedupe-range':
    'The system compares each copy with the kept file and shares the storage only where they match; each copy stays the same file, with its name, dates and permissions.',
  'clone-rename':
    'Plumb compares each copy with the kept file byte for byte, clones the kept file next to the copy, checks the clone, gives it the copy’s dates and permissions and puts it in the copy’s place in one step.',
};

/** The sentences a confirmation repeats, from the dry run of exactly the selected groups. */
export function confirmationSentences(plan: DedupeReport): string[] {
  const planned = plan.actions.filter((a) => a.status === 'planned');
  const groups = new Set(planned.map((a) => a.groupId)).size;
  const sentences = [
    `${plural(planned.length, 'file', 'files')} in ${plural(groups, 'group', 'groups')} will become ${planned.length === 1 ? 'a clone' : 'clones'} of ${groups === 1 ? 'its' : 'their'} group’s kept file.`,
    plan.predictedBytes === null
      ? 'The system cannot predict how much this frees; Plumb will measure it.'
      : `Predicted to free ${formatBytes(plan.predictedBytes)}; Plumb measures the volume before and after.`,
    `Method: ${methodNames[plan.method]}. ${methodExplanations[plan.method]}`,
    'Nothing is deleted. Every file keeps its name, content, dates and permissions, and content is verified before any storage is shared. A file changed since the scan is skipped.',
  ];
  const shared = alreadySharing(plan);
  if (shared > 0)
    sentences.push(
      `${plural(shared, 'file already shares all its', 'files already share all their')} storage with the kept file: left alone, freeing 0 B.`,
    );
  const others = plan.actions.filter((a) => a.status === 'skipped' && a.code !== alreadySharedCode);
  const reasons = new Set(others.map((a) => a.reason));
  const [reason] = reasons;
  if (others.length > 0)
    sentences.push(
      `${plural(others.length, 'file is', 'files are')} already skipped in the plan and will not be touched${reasons.size === 1 && reason ? `: ${reason}` : ''}.`,
    );
  return sentences;
}

export interface FreedComparison {
  predicted: string;
  measured: string;
  sentence: string;
}

/** A plain reading of a measured saving against its prediction. */
export function measuredReading(predicted: number | null, measured: number | null): string {
  if (measured === null)
    return 'The volume did not report its free space, so nothing was measured.';
  if (predicted === null) return `Measured ${formatBytes(measured)} freed on the volume.`;
  const gap = measured - predicted;
  return Math.abs(gap) <= Math.max(64 * 1024, predicted * 0.02)
    ? 'The measured saving matches the prediction.'
    : gap > 0
      ? `The volume freed ${formatBytes(gap)} more than predicted (other activity on the volume counts too).`
      : `The volume freed ${formatBytes(-gap)} less than predicted (other writes, metadata or deferred frees count too).`;
}

/**
 * The copies an apply left alone because they already shared all their storage with the kept
 * file: nothing went wrong with them, and they free nothing.
 */
export function alreadySharing(report: DedupeReport): number {
  return report.actions.filter((a) => a.status === 'skipped' && a.code === alreadySharedCode)
    .length;
}

/** The files an apply skipped or could not change, not counting those already sharing. */
export function skippedOrFailed(report: DedupeReport): number {
  return report.counts.skipped + report.counts.failed - alreadySharing(report);
}

/** The measured saving beside the prediction, with a plain reading of the difference. */
export function freedComparison(report: DedupeReport): FreedComparison {
  const shared = alreadySharing(report);
  const done = `${plural(report.counts.done, 'file now shares', 'files now share')} storage${shared ? ` (${plural(shared, 'other already did', 'others already did')}: 0 B freed)` : ''}`;
  return {
    predicted: bytesOrUnknown(report.predictedBytes),
    measured:
      report.measuredFreedBytes === null ? unknownText : formatBytes(report.measuredFreedBytes),
    sentence: `${done}. ${measuredReading(report.predictedBytes, report.measuredFreedBytes)}`,
  };
}

export interface ProgressFigures {
  files: string;
  bytes: string;
  timeLeft: string;
  /** 0..1 of the bytes to hash, or null while the amount is not known yet. */
  fraction: number | null;
  phase: string;
}

const phaseText: Record<ScanProgress['phase'], string> = {
  walk: 'Listing files',
  compare: 'Comparing sizes and first bytes',
  hash: 'Hashing candidates',
  sharing: 'Checking which copies already share storage',
  done: 'Finishing',
};

export function progressFigures(progress: ScanProgress | null): ProgressFigures {
  if (!progress)
    return {
      files: '0',
      bytes: formatBytes(0),
      timeLeft: 'Estimating…',
      fraction: null,
      phase: 'Starting',
    };
  const fraction =
    progress.bytesToHash > 0 ? Math.min(1, progress.bytesHashed / progress.bytesToHash) : null;
  return {
    files: progress.files.toLocaleString('en-US'),
    bytes: formatBytes(progress.bytes),
    timeLeft: progress.secondsLeft === null ? 'Estimating…' : formatDuration(progress.secondsLeft),
    fraction,
    phase: phaseText[progress.phase],
  };
}

/**
 * The progress card's figures for a sparse-file listing (the walk, then reading each map) or a
 * search for candidates (the walk, then reading each large file for zeros).
 */
export function sparseProgressFigures(progress: SparseListProgress | null): ProgressFigures {
  if (!progress || progress.phase === 'walk') {
    return {
      files: (progress?.files ?? 0).toLocaleString('en-US'),
      bytes: formatBytes(progress?.bytes ?? 0),
      timeLeft: 'Estimating…',
      fraction: null,
      phase: progress ? 'Listing files' : 'Starting',
    };
  }
  const count = `${progress.sparseFiles.toLocaleString('en-US')} ${progress.phase === 'read' ? 'large' : 'sparse'} ${progress.sparseFiles === 1 ? 'file' : 'files'}`;
  return {
    files: progress.files.toLocaleString('en-US'),
    bytes: formatBytes(progress.bytes),
    timeLeft: progress.secondsLeft === null ? 'Estimating…' : formatDuration(progress.secondsLeft),
    fraction: progress.sparseFiles > 0 ? Math.min(1, progress.described / progress.sparseFiles) : 1,
    phase:
      progress.phase === 'read'
        ? `Reading ${count} for runs of zeros`
        : `Reading the data and holes of ${count}`,
  };
}

/** A path as read under the scanned folder ("backup/photo.raw"); unchanged when outside it. */
export function relativeToRoot(file: string, root: string): string {
  const base = root.replace(/[\\/]+$/, '');
  if (file.length > base.length + 1 && file.startsWith(base) && /[\\/]/.test(file[base.length]!))
    return file.slice(base.length + 1);
  return file;
}

/** How long ago a kept scan finished, in words ("just now", "5 minutes ago", "2 days ago"). */
export function scanAge(savedAt: string, now: number = Date.now()): string {
  const seconds = Math.max(0, (now - Date.parse(savedAt)) / 1000);
  if (!Number.isFinite(seconds)) return 'at an unknown time';
  if (seconds < 60) return 'just now';
  const [count, unit] =
    seconds < 3600
      ? [Math.floor(seconds / 60), 'minute']
      : seconds < 86400
        ? [Math.floor(seconds / 3600), 'hour']
        : [Math.floor(seconds / 86400), 'day'];
  return `${plural(count, unit, `${unit}s`)} ago`;
}

export interface GroupFilter {
  /** Only groups whose files are at least this large. */
  minBytes: number;
  /**
   * Only groups with a file under this folder (whole names); empty: all. As the rows show it,
   * relative to the scanned folder ("backup", "./photos/2019"), or a full path.
   */
  folder: string;
}

/** Whether `file` is `folder` itself or inside it (whole path names, either separator). */
export function isUnder(file: string, folder: string): boolean {
  const base = folder.trim().replace(/[\\/]+$/, '');
  if (!base) return false;
  return file === base || (file.startsWith(base) && /[\\/]/.test(file[base.length] ?? ''));
}

/**
 * The folder a filter names, as a full path: a full path ("/home/me/Backup", "C:\\Backup",
 * "\\\\server\\share") as it is, anything else read under the scanned folder `root`, as the
 * rows show paths ("backup" and "./backup" are `root`/backup; "." is `root` itself).
 */
export function folderUnderRoot(folder: string, root: string): string {
  const typed = folder.trim();
  if (!typed || /^([\\/]|[A-Za-z]:[\\/])/.test(typed)) return typed;
  const separator = /^[A-Za-z]:\\|^\\\\/.test(root) ? '\\' : '/';
  const rest = typed.replace(/^\.(?:[\\/]+|$)/, '').replace(/[\\/]+$/, '');
  const base = root.replace(/[\\/]+$/, '');
  return rest ? `${base}${separator}${rest}` : base;
}

/** The groups the filter lets through; a relative folder is read under the scanned `root`. */
export function filterGroups(
  groups: readonly DuplicateGroup[],
  filter: GroupFilter,
  root: string,
): DuplicateGroup[] {
  const folder = folderUnderRoot(filter.folder, root);
  return groups.filter(
    (g) => g.size >= filter.minBytes && (!folder || g.files.some((f) => isUnder(f.path, folder))),
  );
}

/**
 * The file to keep per group when the copy in `folder` should stay: for each group with a file
 * there (the first, in the group's order), that file; other groups keep their scan's keeper. A
 * relative folder is read under the scanned `root`, as the filter reads it.
 */
export function keepersInFolder(
  groups: readonly DuplicateGroup[],
  folder: string,
  root: string,
): Record<string, string> {
  const base = folderUnderRoot(folder, root);
  const keepers: Record<string, string> = {};
  for (const group of groups) {
    const inside = group.files.find((f) => isUnder(f.path, base));
    if (inside && inside.path !== group.keeper) keepers[group.id] = inside.path;
  }
  return keepers;
}
