/**
 * Benchmark operations: start and follow runs (cancelled as jobs), browse and export their results, and
 * analyse another tool's figures. The plan file format is plan.ts, the results document
 * bench-result.ts, the events a run reports bench-events.ts.
 */
import { z } from 'zod';
import { RecoveryWait, runId } from './bench-events.js';
import { FileRecord, Finding, Phase, ResultDocument } from './bench-result.js';
import { guard } from './guard.js';
import { JobId } from './jobs.js';
import { pathField } from './path.js';
import { PairedDirection, Plan } from './plan.js';

const bytes = z.number().int().positive();
const rate = z.number().nonnegative();
const nullableRate = rate.nullable();

/** Per phase, the rate of the bytes and the wall seconds each file costs beyond them. */
const PhasePace = z.object({ bytesPerSecond: z.number().positive(), fileSeconds: z.number() });

/** How fast a run went, wall clock included (for estimating the next run on the volume). */
export const RunPace = z.object({
  write: PhasePace.nullable(),
  read: PhasePace.nullable(),
  /** Seconds the run spent outside its phases (setting up, analysing, saving). */
  runSeconds: z.number().nonnegative(),
  /** For a queue-depth grid: wall seconds per run beyond its set duration (setup included). */
  queueRunSeconds: z.number().nonnegative().nullable().optional(),
});
export type RunPace = z.infer<typeof RunPace>;

export const ResultListItem = z.object({
  id: z.string(),
  name: z.string().nullable(),
  startedAt: z.string(),
  plan: z.string(),
  volumePath: z.string(),
  files: z.number().int(),
  /** The headline rates (app/common/headline-rate.ts; the names are kept from version 1). */
  writeMedian: nullableRate,
  readMedian: nullableRate,
  /** The scale the plan was shrunk by: below 1 is a quick run (app/common/quick-run.ts). */
  scale: z.number().positive().max(1).optional(),
  findings: z.array(z.string()),
  /** The `--verify` verdict, for runs that checked every block (app/common/capacity-check.ts). */
  capacityCheck: z.enum(['passed', 'failed']).optional(),
  /** Null for runs without files (the grid) or without an end time (older documents). */
  pace: RunPace.nullable().optional(),
});
export type ResultListItem = z.infer<typeof ResultListItem>;

const resultId = z.object({ id: z.string().trim().min(1).max(200) });

export const StartBenchInput = z.object({
  path: pathField('Give a folder path.'),
  /**
   * A built-in plan name, a plan, or "read-folder": time reading every file already under the
   * folder, uncached (nothing is written).
   */
  plan: z.union([z.string().min(1).max(100), Plan]).default('standard'),
  scale: z.number().positive().max(1).default(1),
  totalBytes: bytes.optional(),
  buffered: z.boolean().default(false),
  keepFiles: z.boolean().default(false),
  /**
   * Least free space to leave on the volume, bytes; default the larger of 10 % of the volume and
   * 1 GB. Never below the floor (the larger of 1 % and 256 MB); only the CLI's --reserve goes lower.
   */
  reserveBytes: z.number().int().nonnegative().optional(),
  /** Interface ceiling to check rates against (an id from the catalogue); default from the bus. */
  interface: z.string().max(40).optional(),
  /**
   * The run's job id, chosen by the caller before it starts (so it misses none of the run's
   * `job.event`s); the runId when not given.
   */
  jobId: JobId.optional(),
  /** The second folder of a paired plan. */
  pairedWith: z.string().trim().min(1).max(4096).optional(),
  /** Overrides a paired plan's direction. */
  direction: PairedDirection.optional(),
  /**
   * Read every file back after the run and check each 4 KiB block (files and sustained plans; the
   * capacity plan always does).
   */
  verify: z.boolean().optional(),
});
export type StartBenchInput = z.input<typeof StartBenchInput>;

const livePhase = z.enum(['starting', 'write', 'read', 'queue', 'recovery']);

/**
 * A run going on in this process, as far as it got: enough for a page that was reloaded (or a
 * second window) to draw it and follow its `job.event`s from here on.
 */
export const RunningBench = z.object({
  runId,
  /** The run's job: its events come tagged with this id, and jobs.cancel stops it by it. */
  jobId: JobId,
  /** The plan as it runs (scaled); null for a read-folder run. */
  plan: Plan.nullable(),
  planName: z.string(),
  target: z.string(),
  /** What the run was started with. */
  request: z.object({
    path: z.string(),
    scale: z.number(),
    buffered: z.boolean(),
    keepFiles: z.boolean(),
    totalBytes: z.number().optional(),
    pairedWith: z.string().optional(),
    direction: PairedDirection.optional(),
  }),
  startedAt: z.string(),
  phase: livePhase,
  plannedFiles: z.number().int().nullable(),
  filesDone: z.number().int().nonnegative(),
  fileBytesDone: z.number().nonnegative(),
  bytesDone: z.number().nonnegative(),
  totalBytes: z.number().nullable(),
  /** Seconds since the run started, as last reported. */
  seconds: z.number().nonnegative(),
  currentRate: nullableRate,
  /** The most recent files (all of them up to a few thousand). */
  files: z.array(FileRecord),
  /** The most recent progress samples. */
  samples: z.array(
    z.object({
      phase: livePhase.exclude(['starting']),
      seconds: z.number().nonnegative(),
      bytesPerSecond: rate,
      run: z.string().optional(),
    }),
  ),
  findings: z.array(Finding),
  notices: z.array(z.string()),
  /** The latest rest before a recovery probe (over once its seconds have passed). */
  recoveryWait: RecoveryWait.nullable().optional(),
});
export type RunningBench = z.infer<typeof RunningBench>;

export const benchOperations = {
  /** The built-in plans. */
  'bench.plans': { input: z.object({}).strict(), output: z.object({ plans: z.array(Plan) }) },
  /**
   * Starts a run in the background as the job `jobId`; progress and the result arrive as its
   * `job.event`s, and jobs.cancel stops it (its test files are removed).
   */
  'bench.start': {
    input: StartBenchInput,
    output: z.object({ runId }),
    guard: guard({ chosenPaths: ['path', 'pairedWith'] }),
  },
  /** The runs going on now, from any window or page, so a reloaded page can follow them again. */
  'bench.running': {
    input: z.object({}).strict(),
    output: z.object({ runs: z.array(RunningBench) }),
  },
  'results.list': {
    input: z.object({}).strict(),
    output: z.object({ results: z.array(ResultListItem) }),
  },
  'results.get': { input: resultId, output: ResultDocument },
  'results.delete': { input: resultId, output: z.object({ deleted: z.boolean() }) },
  'results.rename': {
    input: resultId.extend({ name: z.string().trim().min(1).max(200) }),
    output: ResultListItem,
  },
  /** The files of a result as CSV: phase,bytes,seconds,cumulativeBytes,t,temperatureC. */
  'results.exportCsv': {
    input: resultId,
    output: z.object({ fileName: z.string(), csv: z.string() }),
  },
  /**
   * Summary and findings for `bytes,seconds[,cumulativeBytes]` lines from any tool, computed off
   * the event loop as a job (its `jobId` chosen by the caller, or one of the server's): jobs.cancel
   * stops it, and so does closing the page or window that asked; either way it fails with
   * ECANCELED.
   */
  'analysis.csv': {
    input: z.object({
      csv: z.string().min(1).max(50_000_000),
      phase: Phase.default('write'),
      interface: z.string().max(40).optional(),
      jobId: JobId.optional(),
    }),
    output: ResultDocument,
  },
} as const;
