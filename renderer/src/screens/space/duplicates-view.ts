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
} from '../../../../app/contract/space.js';
import { formatBytes, formatDuration } from '../../../../app/common/format.js';

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
}

/** The three totals, each with a sentence saying what it means and why it may differ. */
export function totalLines(totals: SpaceTotals, sharingSupported: boolean | null): TotalLine[] {
  const partly =
    totals.unknownGroups > 0 && totals.reclaimableBytes !== null
      ? ` The system could not tell for ${totals.unknownGroups} ${totals.unknownGroups === 1 ? 'group' : 'groups'}, left out here.`
      : '';
  const reclaimable =
    sharingSupported === false
      ? 'This file system cannot share storage between files, so turning copies into clones frees nothing here.'
      : totals.reclaimableBytes === null
        ? 'The system does not say which copies already share storage, so Plumb will not guess what cloning would free. The space freed is measured when you apply.'
        : `What turning the copies into clones would really free: copies that already share storage count for nothing.${partly}`;
  return [
    {
      id: 'nominal',
      label: 'Duplicate copies',
      value: formatBytes(totals.nominalBytes),
      explanation:
        'The size of every extra copy added up — what tools that delete duplicates would claim. Clones already take no extra space, so this overstates the saving.',
    },
    {
      id: 'shared',
      label: 'Already shared',
      value: bytesOrUnknown(totals.sharedBytes),
      explanation:
        totals.sharedBytes === null
          ? 'The system does not report which files share storage here, so this is unknown rather than zero.'
          : 'Of those copies, the bytes already stored only once (clones of each other). Cloning them again frees nothing.',
    },
    {
      id: 'reclaimable',
      label: 'Reclaimable',
      value: sharingSupported === false ? formatBytes(0) : bytesOrUnknown(totals.reclaimableBytes),
      explanation: reclaimable,
    },
  ];
}

export interface SelectionSummary {
  groups: number;
  /** Copies that would become clones of their group's keeper. */
  copies: number;
  /** Predicted bytes freed over the groups that know; null when none know. */
  reclaimableBytes: number | null;
  /** Selected groups whose saving the system could not predict. */
  unknownGroups: number;
}

export function summariseSelection(
  groups: readonly DuplicateGroup[],
  selected: ReadonlySet<string>,
): SelectionSummary {
  const chosen = groups.filter((g) => selected.has(g.id));
  const known = chosen.filter((g) => g.reclaimableBytes !== null);
  return {
    groups: chosen.length,
    copies: chosen.reduce((sum, g) => sum + g.files.length - 1, 0),
    reclaimableBytes: known.length ? known.reduce((sum, g) => sum + g.reclaimableBytes!, 0) : null,
    unknownGroups: chosen.length - known.length,
  };
}

function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

export function selectionText(summary: SelectionSummary): string {
  if (summary.groups === 0) return 'No groups selected.';
  const saving =
    summary.reclaimableBytes === null
      ? 'saving unknown until measured'
      : `about ${formatBytes(summary.reclaimableBytes)} to free${summary.unknownGroups ? ` (${plural(summary.unknownGroups, 'group', 'groups')} unknown)` : ''}`;
  return `${plural(summary.groups, 'group', 'groups')}, ${plural(summary.copies, 'copy', 'copies')} · ${saving}`;
}

export const methodNames: Record<DedupeMethod, string> = {
  'dedupe-range': 'Kernel-verified dedupe (FIDEDUPERANGE)',
  'clone-rename': 'Clone, verify, then rename',
};

export const methodExplanations: Record<DedupeMethod, string> = {
  'dedupe-range':
    'The kernel compares each copy with its keeper byte for byte and shares the storage only where they match; the copy keeps its name, inode and metadata.',
  'clone-rename':
    'Plumb compares each copy with its keeper byte for byte, clones the keeper to a temporary file in the same folder, verifies it, restores the copy’s metadata and renames it over the copy in one step.',
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
    'Nothing is deleted. Every file keeps its name, content and metadata, and content is verified before any storage is shared. A file changed since the scan is skipped.',
  ];
  if (plan.counts.skipped > 0)
    sentences.push(
      `${plural(plan.counts.skipped, 'file is', 'files are')} already skipped in the plan and will not be touched.`,
    );
  return sentences;
}

export interface FreedComparison {
  predicted: string;
  measured: string;
  sentence: string;
}

/** The measured saving beside the prediction, with a plain reading of the difference. */
export function freedComparison(report: DedupeReport): FreedComparison {
  const measured = report.measuredFreedBytes;
  const predicted = report.predictedBytes;
  const done = `${plural(report.counts.done, 'file now shares', 'files now share')} storage`;
  let reading: string;
  if (measured === null)
    reading = 'The volume did not report its free space, so nothing was measured.';
  else if (predicted === null) reading = `Measured ${formatBytes(measured)} freed on the volume.`;
  else {
    const gap = measured - predicted;
    reading =
      Math.abs(gap) <= Math.max(64 * 1024, predicted * 0.02)
        ? 'The measured saving matches the prediction.'
        : gap > 0
          ? `The volume freed ${formatBytes(gap)} more than predicted (other activity on the volume counts too).`
          : `The volume freed ${formatBytes(-gap)} less than predicted (other writes, metadata or deferred frees count too).`;
  }
  return {
    predicted: bytesOrUnknown(predicted),
    measured: measured === null ? unknownText : formatBytes(measured),
    sentence: `${done}. ${reading}`,
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

/** The progress card's figures for a sparse-file listing: the walk, then reading each map. */
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
  return {
    files: progress.files.toLocaleString('en-US'),
    bytes: formatBytes(progress.bytes),
    timeLeft: progress.secondsLeft === null ? 'Estimating…' : formatDuration(progress.secondsLeft),
    fraction: progress.sparseFiles > 0 ? Math.min(1, progress.described / progress.sparseFiles) : 1,
    phase: `Reading the data and holes of ${progress.sparseFiles.toLocaleString('en-US')} sparse ${progress.sparseFiles === 1 ? 'file' : 'files'}`,
  };
}

/** A path as read under the scanned folder ("backup/photo.raw"); unchanged when outside it. */
export function relativeToRoot(file: string, root: string): string {
  const base = root.replace(/[\\/]+$/, '');
  if (file.length > base.length + 1 && file.startsWith(base) && /[\\/]/.test(file[base.length]!))
    return file.slice(base.length + 1);
  return file;
}
