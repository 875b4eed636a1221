/**
 * The plans Plumb ships: each kind's own (app/common/plan-kinds.ts), checked against the plan
 * file format when loaded, as a plan file is.
 */
import { Plan } from '../../contract/plan.js';
import { builtinPlanEntries } from '../../common/plan-kinds.js';

export const builtinPlans: readonly Plan[] = builtinPlanEntries.map((entry) =>
  Plan.parse(entry.plan),
);

export function builtinPlan(name: string): Plan | undefined {
  return builtinPlans.find((plan) => plan.name === name);
}
