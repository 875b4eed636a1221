/**
 * What each plan is for, in the words a user chooses by: a built-in plan's own words from its
 * kind (app/common/plan-kinds.ts); a plan from a file falls back to its own text.
 */
import type { Plan } from '../../../app/contract/plan.js';
import { capitalise, listInWords } from '../../../app/common/format.js';
import { atScale } from '../../../app/common/plan-kind.js';
import {
  builtinPlanEntry,
  isPlanKindName,
  planKindNames,
  planKindOf,
  scaledPlan,
} from '../../../app/common/plan-kinds.js';

export interface PlanStory {
  title: string;
  /** What running it tells you. */
  reveals: string;
  /** What it does, briefly. */
  does: string;
}

/** The read-folder test is no plan: it reads what the chosen folder already holds. */
export const readFolderStory: PlanStory = {
  title: 'Read a folder',
  reveals:
    'How fast files already on the disk read back, such as a folder written long ago or by another tool. Nothing is written.',
  does: 'Every file under the chosen folder, read once with the cache out of the way.',
};

/** The name a plan goes by on screen. */
export function planTitle(name: string): string {
  if (name === 'read-folder') return readFolderStory.title;
  return builtinPlanEntry(name)?.title ?? capitalise(name);
}

/**
 * What a plan is for and what it does. At a `scale` under 1 (a quick run) what it does is said of
 * the plan as it will run, shrunk as the engine shrinks it ("At 1 % of the full plan: 160 files
 * from 20.5 KB to 20.0 MB…"), never of the full-size plan.
 */
export function planStory(plan: Plan, scale = 1): PlanStory {
  const known = builtinPlanEntry(plan.name);
  const running = scale < 1 ? scaledPlan(plan, scale) : plan;
  return {
    title: known?.title ?? capitalise(plan.name),
    reveals: known?.reveals ?? plan.description ?? 'A plan from a file.',
    does: atScale(scale, planKindOf(running).summary(running)),
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
  if (!isPlanKindName(plan.kind)) {
    throw new Error(`The plan's "kind" must be ${listInWords(planKindNames, 'or')}.`);
  }
  if (typeof plan.name !== 'string' || plan.name.trim() === '') {
    throw new Error('The plan needs a "name".');
  }
  return plan as Plan;
}
