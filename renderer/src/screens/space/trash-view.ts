/**
 * What the duplicates view says about the Trash, on disks without clones: the confirmation before
 * copies move (per file, what deleting it would free), the result (the space comes back only when
 * the Trash is emptied), and the second step's confirmation and measurement.
 */
import type { EmptyTrashReport, TrashReport } from '../../../../app/contract/space.js';
import { formatBytes } from '../../../../app/common/format.js';
import {
  bytesOrUnknown,
  measuredReading,
  plural,
  unknownText,
  type FreedComparison,
} from './duplicates-view.js';

/** What the Trash is called where the user is. */
export function trashName(kind: TrashReport['trash']['kind']): string {
  return kind === 'recycle-bin' ? 'Recycle Bin' : 'Trash';
}

/** The sentences the confirmation repeats, from the dry run of exactly the selected groups. */
export function trashConfirmationSentences(plan: TrashReport): string[] {
  const name = trashName(plan.trash.kind);
  if (!plan.trash.available) {
    return [
      `No ${name} is reachable for these files: ${plan.trash.reason ?? 'the system has none here'}`,
      'Plumb does not delete copies outright, so nothing can be moved here.',
    ];
  }
  const planned = plan.actions.filter((a) => a.status === 'planned');
  const groups = new Set(planned.map((a) => a.groupId)).size;
  const nothing = planned.filter((a) => a.freesBytes === 0).length;
  const sentences = [
    `${plural(planned.length, 'file', 'files')} in ${plural(groups, 'group', 'groups')} will move to the ${name}${plan.trash.location ? ` (${plan.trash.location})` : ''}, each compared byte for byte with the copy that stays just before it moves.`,
    plan.predictedBytes === null
      ? `The system cannot say what deleting them from the ${name} would free; Plumb will measure it.`
      : `Deleting them from the ${name} would free ${formatBytes(plan.predictedBytes)}.`,
    `Nothing is deleted now: the space comes back only when these files are deleted from the ${name}, which Plumb offers as a second step. Until then you can put them back.`,
    'A file changed since the scan stays where it is.',
  ];
  if (nothing > 0)
    sentences.push(
      `${plural(nothing, 'file frees', 'files free')} nothing: a clone or another name (hard link) of a file that stays.`,
    );
  if (plan.counts.skipped > 0)
    sentences.push(
      `${plural(plan.counts.skipped, 'file is', 'files are')} already skipped in the plan and will not be touched.`,
    );
  return sentences;
}

/** The result of moving copies: counted as the confirmation counted, and the second step offered. */
export function trashAppliedSentence(report: TrashReport): string {
  const name = trashName(report.trash.kind);
  const moved = `${plural(report.counts.moved, 'copy', 'copies')} moved to the ${name}`;
  const left =
    report.counts.skipped + report.counts.failed > 0
      ? `; ${plural(report.counts.skipped + report.counts.failed, 'file', 'files')} stayed where ${report.counts.skipped + report.counts.failed === 1 ? 'it was' : 'they were'}`
      : '';
  return `${moved}${left}. No space is freed yet: it comes back when these files are deleted from the ${name}, which would free ${bytesOrUnknown(report.predictedBytes)}.`;
}

export function emptyConfirmationSentences(plan: EmptyTrashReport, name: string): string[] {
  const sentences = [
    `${plural(plan.counts.planned, 'file', 'files')} that Plumb moved to the ${name} will be deleted for good: exactly those, nothing else in the ${name}.`,
    `Predicted to free ${bytesOrUnknown(plan.predictedBytes)}; Plumb measures the volume before and after.`,
  ];
  if (plan.counts.skipped > 0)
    sentences.push(
      `${plural(plan.counts.skipped, 'file is', 'files are')} no longer in the ${name} as Plumb left ${plan.counts.skipped === 1 ? 'it' : 'them'} (put back or changed) and will not be touched.`,
    );
  return sentences;
}

export function emptiedComparison(report: EmptyTrashReport, name: string): FreedComparison {
  return {
    predicted: bytesOrUnknown(report.predictedBytes),
    measured:
      report.measuredFreedBytes === null ? unknownText : formatBytes(report.measuredFreedBytes),
    sentence: `${plural(report.counts.deleted, 'file', 'files')} deleted from the ${name}. ${measuredReading(report.predictedBytes, report.measuredFreedBytes)}`,
  };
}
