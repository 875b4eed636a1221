import { readInputFile } from '../input-file.js';
import { Plan, type PlanInput } from '../../contract/plan.js';
import { PlumbError } from '../../contract/errors.js';
import { scaledPlan } from '../../common/plan-kinds.js';
import { builtinPlan, builtinPlans } from './builtin-plans.js';

/** Validates a plan from JSON; EINVAL naming every problem when it is not one. */
export function parsePlan(value: unknown, origin = 'the plan'): Plan {
  const parsed = Plan.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) =>
      issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    )
    .join('; ');
  throw new PlumbError('EINVAL', `${origin} is not a valid plumb.plan/1 plan: ${problems}`);
}

/** A built-in plan by name, or a plan file (JSON) by path. */
export async function loadPlan(nameOrPath: string): Promise<Plan> {
  const builtin = builtinPlan(nameOrPath);
  if (builtin) return builtin;
  if (!nameOrPath.endsWith('.json')) {
    const names = builtinPlans.map((p) => p.name).join(', ');
    throw new PlumbError(
      'EUSAGE',
      `Unknown plan "${nameOrPath}": use ${names}, or a PLAN.json file.`,
    );
  }
  let text: string;
  try {
    text = await readInputFile(nameOrPath);
  } catch (cause) {
    if (cause instanceof PlumbError) throw cause;
    throw new PlumbError(
      (cause as NodeJS.ErrnoException).code ?? 'EIO',
      `Cannot read the plan file ${nameOrPath}: ${(cause as Error).message}`,
      { cause },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new PlumbError(
      'EINVAL',
      `The plan file ${nameOrPath} is not JSON: ${(cause as Error).message}`,
      { cause },
    );
  }
  return parsePlan(json, `The plan file ${nameOrPath}`);
}

/** A plan given to the contract: a built-in name or a plan object. */
export function resolvePlan(plan: string | PlanInput): Promise<Plan> {
  return typeof plan === 'string' ? loadPlan(plan) : Promise.resolve(parsePlan(plan));
}

/**
 * The plan with every size multiplied by `factor` (each kind says how: plan-kinds.ts), for quick
 * runs and tests; its description says the sizes the run uses. EUSAGE for a factor out of range.
 */
export function scalePlan(plan: Plan, factor: number): Plan {
  if (!(factor > 0 && factor <= 1))
    throw new PlumbError('EUSAGE', `The scale must be above 0 and at most 1, not ${factor}.`);
  return scaledPlan(plan, factor);
}
