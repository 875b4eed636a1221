/**
 * Every plan kind, by name: the one table the estimate, the plan catalogue, the command line's
 * checks and the descriptions ask (as fio's engines are chosen by name from `ioengine_ops`).
 * A new kind is a pure part here and an engine part in app/core/bench/plan-kinds.ts; the
 * contract's plan file format (app/contract/plan.ts) holds its schema. Pure: imports nothing.
 */
import type { BuiltinPlan, PlanKind, RunRoom, SizedRun } from './plan-kind.js';
import { atScale } from './plan-kind.js';
import { capacityPlanKind, type CapacityPlanFields } from './plan-kind-capacity.js';
import { filesPlanKind, type FilesPlanFields } from './plan-kind-files.js';
import { pairedPlanKind, type PairedPlanFields } from './plan-kind-paired.js';
import { presetsPlanKind, type PresetsPlanFields } from './plan-kind-presets.js';
import { sustainedPlanKind, type SustainedPlanFields } from './plan-kind-sustained.js';
import { taskPlanKind, type TaskPlanFields } from './plan-kind-task.js';

/** In the order the built-in plans are offered. */
const planKinds = {
  files: filesPlanKind,
  sustained: sustainedPlanKind,
  capacity: capacityPlanKind,
  presets: presetsPlanKind,
  paired: pairedPlanKind,
  task: taskPlanKind,
} as const;

export type PlanKindName = keyof typeof planKinds;

/** A plan of any kind, as far as its kind's pure part reads it. */
export type KindedPlan =
  | FilesPlanFields
  | SustainedPlanFields
  | CapacityPlanFields
  | PresetsPlanFields
  | PairedPlanFields
  | TaskPlanFields;

export const planKindNames = Object.keys(planKinds) as PlanKindName[];

export function isPlanKindName(kind: unknown): kind is PlanKindName {
  return typeof kind === 'string' && Object.hasOwn(planKinds, kind);
}

/** The pure part of the kind named `kind` (a stored result's plan), if Plumb knows it. */
export function planKindNamed(kind: unknown): PlanKind<KindedPlan> | undefined {
  return isPlanKindName(kind) ? (planKinds[kind] as unknown as PlanKind<KindedPlan>) : undefined;
}

/** The pure part of the plan's kind. */
export function planKindOf<P extends KindedPlan>(plan: P): PlanKind<P> {
  // Each entry is the PlanKind of the plans whose kind is its key.
  return planKinds[plan.kind] as unknown as PlanKind<P>;
}

/** Whether `plan` is of `kind`, for what only that kind's screens show (the grid's settings). */
export function planIs<K extends PlanKindName, P extends KindedPlan>(
  plan: P | null | undefined,
  kind: K,
): plan is Extract<P, { kind: K }> {
  return plan?.kind === kind;
}

/** Every built-in plan with its words, in the order offered. */
export const builtinPlanEntries: readonly BuiltinPlan<KindedPlan>[] = planKindNames.flatMap(
  (name) => planKinds[name].builtins as readonly BuiltinPlan<KindedPlan>[],
);

/** The built-in plan named `name`, with its words. */
export function builtinPlanEntry(name: string): BuiltinPlan<KindedPlan> | undefined {
  return builtinPlanEntries.find((entry) => entry.plan.name === name);
}

/** Names of the built-in plans whose kind takes an option, for help and refusals. */
export function builtinNamesWhere(takes: (kind: PlanKind<KindedPlan>) => boolean): string[] {
  return planKindNames
    .filter((name) => takes(planKinds[name] as unknown as PlanKind<KindedPlan>))
    .flatMap((name) => planKinds[name].builtins.map((entry) => entry.plan.name));
}

/**
 * The plan with every size multiplied by `factor` (0 < factor ≤ 1; whole 4 KiB blocks, at least
 * one), for quick runs: its description rewritten with the sizes it uses and its share.
 */
export function scaledPlan<P extends KindedPlan>(plan: P, factor: number): P {
  if (factor === 1) return plan;
  const kind = planKindOf(plan);
  const scaled = kind.scaleSizes(plan, factor);
  return { ...scaled, description: atScale(factor, kind.describe(scaled)) };
}

/** The plan's run on a volume (the plan already scaled): bytes, fit, notes. */
export function sizeRun<P extends KindedPlan>(plan: P, room: RunRoom): SizedRun<P> {
  return planKindOf(plan).size(plan, room);
}
