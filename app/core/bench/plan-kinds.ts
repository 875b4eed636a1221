/**
 * Every plan kind's engine part, by name: the runner asks this table and never branches on a
 * kind. A new kind adds its engine here and its pure part to app/common/plan-kinds.ts.
 */
import type { Plan } from '../../contract/plan.js';
import type { PlanEngine } from './plan-engine.js';
import { capacityEngine } from './plan-kind-capacity.js';
import { filesEngine } from './plan-kind-files.js';
import { pairedEngine } from './plan-kind-paired.js';
import { presetsEngine } from './plan-kind-presets.js';
import { sustainedEngine } from './plan-kind-sustained.js';
import { taskEngine } from './plan-kind-task.js';

const planEngines: { [K in Plan['kind']]: PlanEngine<Extract<Plan, { kind: K }>> } = {
  files: filesEngine,
  sustained: sustainedEngine,
  capacity: capacityEngine,
  presets: presetsEngine,
  paired: pairedEngine,
  task: taskEngine,
};

/** The engine part of the plan's kind. */
export function planEngineOf<P extends Plan>(plan: P): PlanEngine<P> {
  // Each entry is the engine of the plans whose kind is its key.
  return planEngines[plan.kind] as unknown as PlanEngine<P>;
}
