/**
 * The verdicts of the two-disk and real-task tests in plain words, from the sections the engine
 * computed (`paired`, `task`): the figures and sentences come from core; this picks the headline.
 */
import type { PairedSection, PairingResult, TaskSection } from '../../../../app/contract/bench.js';

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
