/**
 * The plan file format (plumb.plan/1): what to run, one schema per kind in a discriminated union.
 * Each schema satisfies the fields its kind's pure part reads (app/common/plan-kind-*.ts), so
 * the two cannot drift apart without this failing to compile.
 */
import { z } from 'zod';
import type { CapacityPlanFields } from '../common/plan-kind-capacity.js';
import type { FilesPlanFields } from '../common/plan-kind-files.js';
import type { PairedPlanFields } from '../common/plan-kind-paired.js';
import type { PresetsPlanFields } from '../common/plan-kind-presets.js';
import type { SustainedPlanFields } from '../common/plan-kind-sustained.js';
import type { TaskPlanFields } from '../common/plan-kind-task.js';
import type { PlanKindName } from '../common/plan-kinds.js';

const bytes = z.number().int().positive();

export const planSchemaVersion = 'plumb.plan/1';

const planBase = {
  schema: z.literal(planSchemaVersion),
  name: z.string().trim().min(1).max(100),
  description: z.string().max(2000).optional(),
};

/** Write a list of files, then (optionally) read them all back with the cache defeated. */
export const FilesPlan = z
  .object({
    ...planBase,
    kind: z.literal('files'),
    /** Explicit sizes, in order. */
    sizes: z.array(bytes).max(100_000).optional(),
    /** Or `count` sizes spread log-uniformly between the two bounds. */
    logUniform: z
      .object({ count: z.number().int().min(1).max(100_000), minBytes: bytes, maxBytes: bytes })
      .refine((v) => v.minBytes <= v.maxBytes, 'minBytes must not exceed maxBytes')
      .optional(),
    repeats: z.number().int().min(1).max(1000).default(1),
    shuffle: z.boolean().default(false),
    /** Seed of the shuffle (recorded in the result so a run can be repeated). */
    seed: z.number().int().nonnegative().optional(),
    readBack: z.boolean().default(true),
  })
  .refine((plan) => plan.sizes !== undefined || plan.logUniform !== undefined, {
    message: 'A files plan needs "sizes" or "logUniform".',
  }) satisfies z.ZodType<FilesPlanFields>;

/** Keep writing files until a total or a time limit, then probe how long the cache takes to recover. */
export const SustainedPlan = z
  .object({
    ...planBase,
    kind: z.literal('sustained'),
    minFileBytes: bytes,
    maxFileBytes: bytes,
    /** Null: the smaller of the free-space allowance and 4 × a guess of the cache. */
    totalBytes: bytes.nullable().default(null),
    timeLimitSeconds: z.number().positive().nullable().default(null),
    seed: z.number().int().nonnegative().optional(),
    recovery: z
      .object({
        idleSeconds: z.number().positive(),
        probeBytes: bytes,
        maxProbes: z.number().int().min(1).max(1000),
      })
      .nullable()
      .default(null),
  })
  .refine(
    (plan) => plan.minFileBytes <= plan.maxFileBytes,
    'minFileBytes must not exceed maxFileBytes',
  ) satisfies z.ZodType<SustainedPlanFields>;

/**
 * The capacity check users know from f3 and h2testw: fill the space a run may use with files
 * whose every 4 KiB block is stamped, then read them all back and check each block, so a drive
 * that stores less than it reports is caught. The writing is timed and sampled like a sustained
 * run's, so its rate curve (and any cache cliff) comes free.
 */
export const CapacityPlan = z.object({
  ...planBase,
  kind: z.literal('capacity'),
  /** Size of each file written (the last takes what is left). */
  fileBytes: bytes,
  /** Null: all the free-space allowance, the point of the check; else at most this much. */
  totalBytes: bytes.nullable().default(null),
  seed: z.number().int().nonnegative().optional(),
}) satisfies z.ZodType<CapacityPlanFields>;

export const QueueOp = z.enum(['read', 'write', 'randread', 'randwrite']);

export const QueueRunSpec = z.object({
  name: z.string().min(1).max(100),
  op: QueueOp,
  blockSize: bytes,
  queueDepth: z.number().int().min(1).max(1024),
  threads: z.number().int().min(1).max(64).default(1),
});

/** The familiar queue-depth grid (SEQ1M Q8T1 … RND4K Q1T1). */
export const PresetsPlan = z.object({
  ...planBase,
  kind: z.literal('presets'),
  fileBytes: bytes,
  durationSeconds: z.number().positive().max(3600),
  runs: z.array(QueueRunSpec).min(1).max(100),
}) satisfies z.ZodType<PresetsPlanFields>;

/** Which transfers a paired run makes together: both the same way, opposite ways, or both kinds. */
export const PairedDirection = z.enum(['same', 'opposite', 'both']);
export type PairedDirection = z.infer<typeof PairedDirection>;

/**
 * Two targets at once (the two-SSDs-on-one-dock test): each target alone first, then both
 * together — both writing and both reading ("same"), and the first writing while the second
 * reads ("opposite") — to show whether they share a bottleneck.
 */
export const PairedPlan = z.object({
  ...planBase,
  kind: z.literal('paired'),
  fileBytes: bytes,
  /** Files each target moves in each stage. */
  filesPerStage: z.number().int().min(1).max(10_000),
  direction: PairedDirection.default('both'),
}) satisfies z.ZodType<PairedPlanFields>;

export const TaskCodec = z.enum(['auto', 'gzip', 'zstd']);

/**
 * A real workload (seed 002): compress a large, partly compressible file with every core, from
 * and to the target, and the same from and to memory, to tell whether the task is disk-bound.
 */
export const TaskPlan = z.object({
  ...planBase,
  kind: z.literal('task'),
  inputBytes: bytes,
  /** Compressed independently and in parallel, like pigz or zstd -T0. */
  chunkBytes: bytes.default(4 * 1024 * 1024),
  /** "auto": zstd where this Node has it, else gzip. */
  codec: TaskCodec.default('auto'),
  level: z.number().int().min(1).max(19).optional(),
  /** Compression threads; null: one per CPU core. */
  workers: z.number().int().min(1).max(256).nullable().default(null),
  /** Share of the input in repetitive blocks (the rest is random), so it compresses some. */
  compressibleShare: z.number().min(0).max(1).default(0.5),
  /** Times the disk and memory runs are each repeated; the best of each is compared. */
  repeats: z.number().int().min(1).max(20).default(2),
  seed: z.number().int().nonnegative().optional(),
}) satisfies z.ZodType<TaskPlanFields>;

/** A plan of any kind, told apart by its `kind` (the kinds: app/common/plan-kinds.ts). */
export const Plan = z.discriminatedUnion('kind', [
  FilesPlan,
  SustainedPlan,
  CapacityPlan,
  PresetsPlan,
  PairedPlan,
  TaskPlan,
]);
export type Plan = z.output<typeof Plan>;

/** The union has a schema for every kind of the table and no other (checked when this compiles). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _everyKindHasItsSchema: Same<Plan['kind'], PlanKindName> = true;

export type PlanInput = z.input<typeof Plan>;
export type FilesPlan = z.output<typeof FilesPlan>;
export type SustainedPlan = z.output<typeof SustainedPlan>;
export type CapacityPlan = z.output<typeof CapacityPlan>;
export type PresetsPlan = z.output<typeof PresetsPlan>;
export type PairedPlan = z.output<typeof PairedPlan>;
export type TaskPlan = z.output<typeof TaskPlan>;
export type QueueRunSpec = z.output<typeof QueueRunSpec>;
