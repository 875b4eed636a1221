import { readInputFile } from '../input-file.js';
import { Plan, type PlanInput } from '../../contract/bench.js';
import { PlumbError } from '../../contract/errors.js';
import { builtinPlan, builtinPlans } from './builtin-plans.js';
import { toBlocks } from './file-sizes.js';
import { runPlanDescription } from '../../common/plan-description.js';

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

/** Presets never run shorter than this, however small the scale. */
const minScaledSeconds = 0.25;

/**
 * The plan with every size multiplied by `factor` (rounded to whole 4 KiB blocks, at least one),
 * for quick runs and tests; preset durations shrink too (a task's chunks keep their size, so the
 * work per thread stays real, unless the input is smaller). Idle times of the recovery probe do not:
 * a cache empties at its own pace. The description is rewritten with the sizes the run uses.
 */
export function scalePlan(plan: Plan, factor: number): Plan {
  if (factor === 1) return plan;
  if (!(factor > 0 && factor <= 1))
    throw new PlumbError('EUSAGE', `The scale must be above 0 and at most 1, not ${factor}.`);
  const scaled = scaledSizes(plan, factor);
  return { ...scaled, description: runPlanDescription(scaled, factor) };
}

function scaledSizes(plan: Plan, factor: number): Plan {
  const size = (bytes: number) => toBlocks(bytes * factor);
  switch (plan.kind) {
    case 'files':
      return {
        ...plan,
        sizes: plan.sizes?.map(size),
        logUniform: plan.logUniform && {
          ...plan.logUniform,
          minBytes: size(plan.logUniform.minBytes),
          maxBytes: size(plan.logUniform.maxBytes),
        },
      };
    case 'sustained':
      return {
        ...plan,
        minFileBytes: size(plan.minFileBytes),
        maxFileBytes: size(plan.maxFileBytes),
        totalBytes: plan.totalBytes === null ? null : size(plan.totalBytes),
        recovery: plan.recovery && { ...plan.recovery, probeBytes: size(plan.recovery.probeBytes) },
      };
    case 'capacity':
      return {
        ...plan,
        fileBytes: size(plan.fileBytes),
        totalBytes: plan.totalBytes === null ? null : size(plan.totalBytes),
      };
    case 'presets':
      return {
        ...plan,
        fileBytes: size(plan.fileBytes),
        durationSeconds: Math.max(minScaledSeconds, plan.durationSeconds * factor),
      };
    case 'paired':
      return { ...plan, fileBytes: size(plan.fileBytes) };
    case 'task':
      return {
        ...plan,
        inputBytes: size(plan.inputBytes),
        chunkBytes: Math.min(size(plan.inputBytes), plan.chunkBytes),
      };
  }
}
