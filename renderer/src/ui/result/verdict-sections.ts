/**
 * The verdicts of the two-disk and real-task tests in plain words, from the sections the engine
 * computed (`paired`, `task`): the figures and sentences come from core; this picks the headline.
 * And what any result says of its disk, in one or two sentences to lead its page.
 */
import type {
  PairedSection,
  PairingResult,
  ResultDocument,
  TaskSection,
} from '../../../../app/contract/bench-result.js';
import { formatRate } from '../../../../app/common/format.js';
import { headline } from '../../../../app/common/headline-rate.js';
import { findingCards } from './findings-text.js';
import { queueHeadlines } from './summary-table.js';

export type Tone = 'good' | 'warning' | 'caution';

export interface PlainVerdict {
  title: string;
  sentence: string;
  tone: Tone;
}

const pairingNames: Record<PairingResult['pairing'], string> = {
  'write+write': 'Both writing',
  'read+read': 'Both reading',
  'write+read': 'A writing, B reading',
};

export function pairingName(pairing: PairingResult['pairing']): string {
  return pairingNames[pairing];
}

const pairingWhen: Record<PairingResult['pairing'], string> = {
  'write+write': 'when both write',
  'read+read': 'when both read',
  'write+read': 'when A writes while B reads',
};

const percent = (share: number) => `${Math.round(share * 100)} %`;
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
/** A title inside a sentence: "faster than any SSD", its abbreviations kept. */
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** Whether the two targets slow each other down, in one title and one sentence. */
export function pairedVerdict(section: PairedSection): PlainVerdict {
  const hit = section.pairings.filter((p) => p.interferes);
  if (section.pairings.length === 0)
    return {
      title: 'Nothing to compare',
      sentence: 'The run moved no files together.',
      tone: 'caution',
    };
  if (hit.length === 0) {
    return {
      title: 'No interference',
      sentence: `Used together, each kept its speed alone (${section.pairings
        .map((p) => `${pairingName(p.pairing).toLowerCase()}: ${percent(p.retained)}`)
        .join(', ')}). Nothing between them is a bottleneck for this work.`,
      tone: 'good',
    };
  }
  const worst = hit.reduce((a, b) => (b.retained < a.retained ? b : a));
  const where = section.sameVolume
    ? 'They are on one volume, so they share it by design.'
    : 'Something between them is shared: the link, a hub or dock, or a controller.';
  return {
    title: 'They slow each other down',
    sentence: `${capitalised(hit.map((p) => pairingWhen[p.pairing]).join(' and '))}, together they kept only ${percent(worst.retained)} of their speeds alone. ${where}`,
    tone: 'warning',
  };
}

const taskTitles: Record<TaskSection['verdict'], string> = {
  'disk-bound': 'Held back by the disk',
  'partly-disk-bound': 'Partly held back by the disk',
  'cpu-bound': 'The processor sets the pace',
};

/** Whether the task is disk-bound here: the engine's sentence under a plain title. */
export function taskVerdict(task: TaskSection): PlainVerdict {
  return {
    title: taskTitles[task.verdict],
    sentence: task.message,
    tone:
      task.verdict === 'cpu-bound' ? 'good' : task.verdict === 'disk-bound' ? 'warning' : 'caution',
  };
}

/** What the disk did, in one or two sentences a non-expert reads first. */
export function plainVerdict(document: ResultDocument): string {
  const warnings = findingCards(document.findings).filter((card) => card.tone === 'warning');
  const attention =
    warnings.length === 0
      ? ''
      : ` Read the ${warnings.length === 1 ? 'finding' : `${warnings.length} findings`} below: ${warnings.map((card) => lowerFirst(card.title)).join(', ')}.`;
  if (document.files.length === 0) {
    const tiles = queueHeadlines(document.runs ?? []);
    if (tiles.length === 0) return `The test measured nothing on this disk.${attention}`;
    const said = tiles.map((tile) => tile.said);
    const list = said.length > 1 ? `${said.slice(0, -1).join(', ')} and ${said.at(-1)!}` : said[0]!;
    return `At its best in the grid below, this disk managed ${list}.${attention}`;
  }
  const said = (['write', 'read'] as const)
    .map((phase) => ({ phase, ...headline(document, phase) }))
    .filter((h) => h.rate !== null);
  if (said.length === 0)
    return `All the files of this test were under 2 MB, too small to show the drive's own speed; the charts and the details below show each one.${attention}`;
  // One basis said once when both directions share it ("54 files of 2 MB or more").
  const shared = said.length === 2 && said[0]!.basis === said[1]!.basis;
  const did = said.map(
    (h) =>
      `${h.phase === 'write' ? 'wrote' : 'read'} at ${formatRate(h.rate)}${shared ? '' : ` (${h.basis})`}`,
  );
  if (shared) did[1] += ` (${said[0]!.basis} each way)`;
  const how =
    document.environment.cacheMode === 'direct' ? ', with the system cache out of the way' : '';
  return `This disk ${did.join(' and ')}${how}.${attention}`;
}
