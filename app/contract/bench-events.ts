/**
 * What a benchmark run reports as it goes, each event tagged with its runId; it reaches a front
 * end inside the run's `job.event` (jobs.ts), tagged with the job's id as well.
 */
import { z } from 'zod';
import { FileRecord, Finding } from './bench-result.js';

const nullableRate = z.number().nonnegative().nullable();

export const runId = z.string().min(1);

/**
 * A wait the run makes on purpose: the drive left idle so its write cache can empty before a
 * recovery probe. Said as a wait with its own end, so no screen shows a full bar meanwhile.
 */
export const RecoveryWait = z.object({
  /** Seconds the wait lasts, from `atSeconds` (the run's seconds when it began). */
  seconds: z.number().nonnegative(),
  atSeconds: z.number().nonnegative(),
  /** The probe that follows (0 for the first), the most the run makes, and its size. */
  probe: z.number().int().nonnegative(),
  maxProbes: z.number().int().positive(),
  probeBytes: z.number().positive(),
});
export type RecoveryWait = z.infer<typeof RecoveryWait>;

export const BenchEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('plan-started'),
    runId,
    plan: z.string(),
    target: z.string(),
    /** Files the plan will transfer (null when it runs until a limit), and their bytes. */
    files: z.number().int().nullable(),
    bytes: z.number().nullable(),
    /** What the run will do, with the sizes it uses (recovery probes sized to the free space). */
    description: z.string().optional(),
  }),
  z.object({
    type: z.literal('phase-started'),
    runId,
    phase: z.enum(['write', 'read', 'queue', 'recovery']),
  }),
  z.object({
    type: z.literal('file-done'),
    runId,
    index: z.number().int().nonnegative(),
    count: z.number().int().nullable(),
    file: FileRecord,
    rate: nullableRate,
  }),
  z.object({
    type: z.literal('sample'),
    runId,
    phase: z.enum(['write', 'read', 'queue', 'recovery']),
    /** Bytes done of the whole run so far and seconds since the run started. */
    bytesDone: z.number().nonnegative(),
    totalBytes: z.number().nullable(),
    seconds: z.number().nonnegative(),
    bytesPerSecond: nullableRate,
    /** The queue-depth run this sample belongs to. */
    run: z.string().optional(),
    /**
     * Write, read and recovery: the sample in the phase's columns (see SampleColumns): seconds
     * since the phase started, bytes of the phase moved, and the index of the file.
     */
    t: z.number().nonnegative().optional(),
    phaseBytes: z.number().nonnegative().optional(),
    file: z.number().int().nonnegative().optional(),
  }),
  z.object({ type: z.literal('finding'), runId, finding: Finding }),
  z.object({ type: z.literal('notice'), runId, message: z.string() }),
  z.object({ type: z.literal('wait'), runId, ...RecoveryWait.shape }),
  z.object({
    type: z.literal('finished'),
    runId,
    resultId: z.string(),
    findings: z.array(Finding),
  }),
  z.object({
    type: z.literal('failed'),
    runId,
    error: z.object({ code: z.string(), message: z.string() }),
  }),
  z.object({ type: z.literal('cancelled'), runId }),
]);
export type BenchEvent = z.infer<typeof BenchEvent>;
