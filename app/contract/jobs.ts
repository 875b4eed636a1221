/**
 * Long-running work as jobs: the caller chooses the id before it starts the work (so it can
 * listen first and miss nothing), every job reports through `job.event`, and `jobs.cancel` stops
 * any of them. Work that produces a result still returns it from the call that started it.
 */
import { z } from 'zod';
import { BenchEvent } from './bench-events.js';

/** Chosen by the caller (a UUID, say); unique among the jobs running in the process. */
export const JobId = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9._:-]{1,100}$/,
    'A job id is 1 to 100 letters, digits, dots, colons or dashes.',
  );

export const JobKind = z.enum([
  'bench',
  'analysis',
  'scan',
  'dedupe',
  'trash',
  'trash-empty',
  'punch',
  'sparse-list',
  'sparse-candidates',
]);
export type JobKind = z.infer<typeof JobKind>;

const count = z.number().int().nonnegative();
const bytes = z.number().nonnegative();

/** How far a job has got: items (files) and bytes, each of a total when known. */
export const JobProgress = z.object({
  /** What it is doing now, in a word (the kind's own: 'walk', 'read', ...); null with one step. */
  phase: z.string().nullable(),
  done: count,
  total: count.nullable(),
  bytesDone: bytes,
  bytesTotal: bytes.nullable(),
  /** Seconds since the job started. */
  seconds: z.number().nonnegative(),
});
export type JobProgress = z.infer<typeof JobProgress>;

const tag = { jobId: JobId, kind: JobKind };

export const JobEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('started'), ...tag }),
  z.object({ type: z.literal('progress'), ...tag, progress: JobProgress }),
  z.object({ type: z.literal('done'), ...tag }),
  z.object({
    type: z.literal('failed'),
    ...tag,
    error: z.object({ code: z.string(), message: z.string() }),
  }),
  /** Stopped by jobs.cancel (or the CLI's Ctrl-C); what was done before stays done. */
  z.object({ type: z.literal('cancelled'), ...tag }),
  /**
   * What a bench run reports beyond progress (plan, phases, samples, files, findings, its
   * result), for its live view; the run's own end comes as its `finished`, `failed` or
   * `cancelled` here before the job's.
   */
  z.object({ type: z.literal('bench'), ...tag, event: BenchEvent }),
]);
export type JobEvent = z.infer<typeof JobEvent>;

export const JobState = z.enum(['running', 'cancelling', 'done', 'failed', 'cancelled']);
export type JobState = z.infer<typeof JobState>;

/** A job as the registry knows it: running ones, and the last few that ended. */
export const JobInfo = z.object({
  ...tag,
  state: JobState,
  startedAt: z.string(),
  progress: JobProgress.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type JobInfo = z.infer<typeof JobInfo>;

export const jobOperations = {
  /** The jobs running in this process and the last few that ended, oldest first. */
  'jobs.list': { input: z.object({}).strict(), output: z.object({ jobs: z.array(JobInfo) }) },
  /**
   * Asks a running job to stop: it stops at its next safe point (an apply, between files) and
   * ends with a `cancelled` event. False when no such job is running.
   */
  'jobs.cancel': {
    input: z.object({ jobId: JobId }),
    output: z.object({ cancelled: z.boolean() }),
  },
} as const;

export const jobEvents = {
  /** Everything every job reports, tagged with its jobId and kind. */
  'job.event': JobEvent,
} as const;
