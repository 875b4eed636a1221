/** What each plan is for, in the words a user chooses by; unknown plans fall back to their own text. */
import type { Plan } from '../../../../app/contract/bench.js';
import { capitalise } from '../../../../app/common/format.js';

export interface PlanStory {
  title: string;
  /** What running it tells you. */
  reveals: string;
  /** What it does, briefly. */
  does: string;
}

const stories: Record<string, Omit<PlanStory, 'does'>> = {
  standard: {
    title: 'Standard',
    reveals:
      'The honest everyday speed: how fast the disk writes and reads files from small to large, without the system cache flattering it.',
  },
  series: {
    title: 'Size series',
    reveals:
      'Where speed tops out: the same sizes three times each, from tiny to large, so you see the curve rise and level off.',
  },
  sustained: {
    title: 'Sustained write',
    reveals:
      'What happens on a long copy: when the fast write cache fills, how far the speed falls, and how long the disk takes to recover.',
  },
  capacity: {
    title: 'Capacity check',
    reveals:
      'Whether the disk really holds what it claims, as f3 and h2testw check: fake sticks and failing drives lose data past their true size. Its write speed over the whole fill comes free.',
  },
  presets: {
    title: 'Queue-depth grid',
    reveals:
      'The familiar grid of other benchmark tools (sequential and random, deep and shallow queues), for comparing with their figures.',
  },
  paired: {
    title: 'Two disks at once',
    reveals:
      'Whether two disks slow each other down when used together, as on one dock or hub: each alone, then both at once in the same and opposite directions.',
  },
  'read-folder': {
    title: 'Read a folder',
    reveals:
      'How fast files already on the disk read back, such as a folder written long ago or by another tool. Nothing is written.',
  },
  task: {
    title: 'Real task',
    reveals:
      'Whether a real job (compressing a large file on every core) is held back by this disk, or would run no faster on a quicker one.',
  },
};

function sizeText(bytes: number): string {
  return bytes >= 1e9
    ? `${+(bytes / 1e9).toFixed(1)} GB`
    : bytes >= 1e6
      ? `${+(bytes / 1e6).toFixed(1)} MB`
      : `${+(bytes / 1e3).toFixed(1)} KB`;
}

/** One line on what the plan does, from its own fields. */
export function planDoes(plan: Plan): string {
  switch (plan.kind) {
    case 'files': {
      const count = (plan.sizes?.length ?? plan.logUniform?.count ?? 0) * plan.repeats;
      const low = plan.sizes ? Math.min(...plan.sizes) : plan.logUniform!.minBytes;
      const high = plan.sizes ? Math.max(...plan.sizes) : plan.logUniform!.maxBytes;
      return `${count} files from ${sizeText(low)} to ${sizeText(high)}${plan.shuffle ? ' in random order' : ''}, written${plan.readBack ? ' then read back' : ''}.`;
    }
    case 'sustained':
      return `Files of ${sizeText(plan.minFileBytes)} to ${sizeText(plan.maxFileBytes)} written back to back${plan.recovery ? ', then idle-and-probe to time the recovery' : ''}.`;
    case 'capacity':
      return `${plan.totalBytes === null ? 'The free space' : `Up to ${sizeText(plan.totalBytes)}`} filled with ${sizeText(plan.fileBytes)} files, then every block read back and checked.`;
    case 'presets':
      return `${plan.runs.length} queue-depth runs of ${+plan.durationSeconds.toFixed(2)} s each on one ${sizeText(plan.fileBytes)} file.`;
    case 'paired':
      return `${plan.filesPerStage} files of ${sizeText(plan.fileBytes)} per folder, each folder alone, then both together.`;
    case 'task':
      return `Compress a ${sizeText(plan.inputBytes)} file on every core, on the disk and in memory, ${plan.repeats} times each.`;
  }
}

/** The read-folder test is no plan: it reads what the chosen folder already holds. */
export const readFolderStory: PlanStory = {
  title: stories['read-folder']!.title,
  reveals: stories['read-folder']!.reveals,
  does: 'Every file under the chosen folder, read once with the cache out of the way.',
};

/** The name a plan goes by on screen. */
export function planTitle(name: string): string {
  return stories[name]?.title ?? capitalise(name);
}

export function planStory(plan: Plan): PlanStory {
  const known = stories[plan.name];
  return {
    title: known?.title ?? capitalise(plan.name),
    reveals: known?.reveals ?? plan.description ?? 'A plan from a file.',
    does: planDoes(plan),
  };
}

/** The plan as a file to keep or share (plumb.plan/1 JSON). */
export function planFileText(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}

/**
 * A plan read from a file: checked for the schema and a known kind here so the user hears at
 * once; the engine validates every field again when the run starts.
 */
export function readPlanFile(text: string): Plan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('That file is not JSON. A plan file is what "Export plan" saves.');
  }
  const plan = value as Partial<Plan> | null;
  if (!plan || typeof plan !== 'object' || plan.schema !== 'plumb.plan/1') {
    throw new Error('That file is not a Plumb plan (it has no "schema": "plumb.plan/1").');
  }
  const kinds = ['files', 'sustained', 'capacity', 'presets', 'paired', 'task'];
  if (typeof plan.kind !== 'string' || !kinds.includes(plan.kind)) {
    throw new Error(
      'The plan\'s "kind" must be files, sustained, capacity, presets, paired or task.',
    );
  }
  if (typeof plan.name !== 'string' || plan.name.trim() === '') {
    throw new Error('The plan needs a "name".');
  }
  return plan as Plan;
}
