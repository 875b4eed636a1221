/**
 * A plan's description from its own sizes, so a plan shrunk by `--scale` says the sizes it
 * actually used ("5 s each on a 10.7 MB file", not the full plan's 1 GiB). Each kind words its
 * own (plan-kinds.ts); core stores it and the renderer words documents stored before. Pure:
 * imports nothing.
 */
import { atScale } from './plan-kind.js';
import { isPlanKindName, planKindOf, type KindedPlan } from './plan-kinds.js';

/** What the plan does, with the sizes it holds. */
export function planDescription(plan: KindedPlan): string {
  return planKindOf(plan).describe(plan);
}

/**
 * What a stored run's plan did, for a reader: its own description for a full run; for a quick run
 * (scale below 1) one made from the sizes it used, whatever description was stored with it
 * (results saved before scaled plans said their sizes kept the full plan's words).
 */
export function runPlanDescription(plan: object, scale: number): string {
  const { kind, description } = plan as { kind?: unknown; description?: unknown };
  const stored = typeof description === 'string' ? description : '';
  if (scale >= 1 || !isPlanKindName(kind)) return stored;
  return atScale(scale, planDescription(plan as KindedPlan));
}
