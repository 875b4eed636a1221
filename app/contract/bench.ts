/**
 * Benchmarks: plans (what to run), the results document (the public file format of DESIGN.md),
 * the runner's events, and the operations that start, cancel and browse runs.
 */
import { z } from 'zod';
import { pathField } from './path.js';
import { PairedDirection, Plan, QueueOp } from './plan.js';

const bytes = z.number().int().positive();
const rate = z.number().nonnegative();

// ── The results document ─────────────────────────────────────────────────────────────────────

/**
 * Version 2 added the samples taken inside files (`samplesByPhase`) and the run's `scale` at the
 * top level. Version 1 documents still open everywhere: they are migrated as they are read
 * (`scale` from the plan, no samples), so the rest of Plumb sees one shape.
 */
export const resultSchemaVersion = 'plumb.result/2';
/** Every version this Plumb opens, oldest first. */
export const resultSchemaVersions = ['plumb.result/1', resultSchemaVersion] as const;

export function isResultSchema(value: unknown): boolean {
  return (resultSchemaVersions as readonly unknown[]).includes(value);
}

export const Phase = z.enum(['write', 'read']);
export type Phase = z.infer<typeof Phase>;

export const FileRecord = z.looseObject({
  phase: Phase,
  bytes: z.number().nonnegative(),
  seconds: z.number().nonnegative(),
  cumulativeBytes: z.number().nonnegative(),
  /** Seconds since the phase started, at the end of this file. */
  t: z.number().nonnegative(),
  temperatureC: z.number().nullable(),
  /**
   * Paired runs: which target moved the file ("a" = the run's folder, "b" = the other), whether
   * it ran alone or together with the other target, and the pairing ("write+read": a writes while
   * b reads). `cumulativeBytes` then counts that target's bytes of the phase.
   */
  target: z.enum(['a', 'b']).optional(),
  stage: z.enum(['alone', 'together']).optional(),
  pairing: z.enum(['write+write', 'read+read', 'write+read']).optional(),
});
export type FileRecord = z.infer<typeof FileRecord>;

const nullableRate = rate.nullable();

export const PhaseSummary = z.looseObject({
  count: z.number().int().nonnegative(),
  mean: nullableRate,
  median: nullableRate,
  min: nullableRate,
  max: nullableRate,
  sd: z.number().nonnegative().nullable(),
  trimmedMean: z.object({ rate, p20: rate, p80: rate }).nullable(),
  theilSen: z.object({ rate: nullableRate, latency: z.number().nullable() }),
  linear: z.object({
    rate: nullableRate,
    latency: z.number().nullable(),
    r2: z.number().nullable(),
  }),
  bySize: z.array(z.object({ bytes: z.number(), count: z.number().int(), medianRate: rate })),
});
export type PhaseSummary = z.infer<typeof PhaseSummary>;

const findingBase = { phase: Phase.nullable(), message: z.string() };

export const Finding = z.discriminatedUnion('kind', [
  z.looseObject({
    ...findingBase,
    kind: z.enum(['cliff', 'throttling']),
    atBytes: z.number().nonnegative(),
    atSeconds: z.number().nullable(),
    beforeRate: rate,
    afterRate: rate,
    confidence: z.number().min(0).max(1),
    cause: z.enum(['cache', 'thermal', 'unknown']),
    reason: z.string(),
    recoverySeconds: z.number().nullable(),
    /** From samples: every step of the rate, the first at the start (a cache running out). */
    steps: z.array(z.object({ atBytes: z.number(), atSeconds: z.number(), rate })).optional(),
    /** From samples: a rate that fell and came back again and again while the phase went on. */
    repeating: z
      .object({ count: z.number(), periodSeconds: z.number(), slowShare: z.number() })
      .optional(),
  }),
  z.looseObject({
    ...findingBase,
    kind: z.literal('exceeds-interface'),
    interface: z.string(),
    ceilingRate: rate,
    count: z.number().int(),
    maxRate: rate,
  }),
  z.looseObject({
    ...findingBase,
    kind: z.literal('bimodal'),
    modes: z.array(z.object({ rate, count: z.number().int() })),
    ashmansD: z.number(),
  }),
  z.looseObject({
    ...findingBase,
    kind: z.literal('small-files'),
    count: z.number().int(),
    thresholdBytes: z.number(),
  }),
  z.looseObject({ ...findingBase, kind: z.literal('buffered') }),
  /** The run was too small to get past the drive's or the OS's caches (cache-reach.ts). */
  z.looseObject({
    ...findingBase,
    kind: z.literal('within-cache'),
    bytes: z.number().nonnegative(),
    cacheBytes: z.number().nonnegative(),
    cache: z.enum(['drive', 'memory']),
  }),
  z.looseObject({ ...findingBase, kind: z.literal('unstable'), spread: z.number() }),
]);
export type Finding = z.infer<typeof Finding>;

export const QueueRunResult = z.looseObject({
  name: z.string(),
  op: QueueOp,
  blockSize: z.number().int(),
  queueDepth: z.number().int(),
  threads: z.number().int(),
  bytesPerSecond: rate,
  iops: z.number().nonnegative(),
  latency: z.looseObject({ p50: z.number(), p99: z.number(), p999: z.number() }),
  samples: z.array(z.object({ t: z.number(), bytesPerSecond: rate })),
});
export type QueueRunResult = z.infer<typeof QueueRunResult>;

export const RecoveryProbeRecord = z.object({
  idleSeconds: z.number().nonnegative(),
  bytes: z.number().nonnegative(),
  seconds: z.number().nonnegative(),
  rate,
});

const PairedTargetRates = z.object({
  path: z.string(),
  /** Bytes over seconds of the target's files in the stage (null when it had none). */
  writeAlone: nullableRate,
  readAlone: nullableRate,
});

export const PairingResult = z.object({
  pairing: z.enum(['write+write', 'read+read', 'write+read']),
  /** Each target's rate alone in its direction of this pairing, and together. */
  aloneA: rate,
  aloneB: rate,
  togetherA: rate,
  togetherB: rate,
  /** togetherA + togetherB: what both moved at once. */
  aggregate: rate,
  /** aggregate / (aloneA + aloneB): 1 = no interference. */
  retained: z.number().nonnegative(),
  interferes: z.boolean(),
  message: z.string(),
});
export type PairingResult = z.infer<typeof PairingResult>;

export const PairedSection = z.object({
  targets: z.object({ a: PairedTargetRates, b: PairedTargetRates }),
  /** Whether the two targets are on one volume (then they share it by design). */
  sameVolume: z.boolean(),
  pairings: z.array(PairingResult),
});
export type PairedSection = z.infer<typeof PairedSection>;

/** One timed compression of the whole input: from and to the target, or from and to memory. */
export const TaskRun = z.object({
  where: z.enum(['disk', 'memory']),
  inputBytes: z.number().nonnegative(),
  outputBytes: z.number().nonnegative(),
  seconds: z.number().nonnegative(),
  /** Input bytes per second. */
  rate,
});

export const TaskSection = z.object({
  codec: z.enum(['gzip', 'zstd']),
  level: z.number().int(),
  workers: z.number().int(),
  chunkBytes: z.number().int(),
  inputBytes: z.number().nonnegative(),
  /** Compressed bytes over input bytes. */
  compressionRatio: z.number().nonnegative(),
  runs: z.array(TaskRun),
  /** Best disk and memory runs (input bytes/s). */
  diskRate: rate,
  memoryRate: rate,
  /** 1 - diskRate / memoryRate, at least 0: the share of speed the disk cost. */
  slowdown: z.number().min(0).max(1),
  verdict: z.enum(['disk-bound', 'partly-disk-bound', 'cpu-bound']),
  /** The disk direction closest to its measured limit at the CPU-bound rate, if near it. */
  limitedBy: z.enum(['read', 'write']).nullable(),
  /** Share of the time the disk would be busy at the CPU-bound pace (disk-bound.ts); older results lack it. */
  diskLoad: z.number().nonnegative().nullable().optional(),
  /** The resource that limits the task; older results lack it. */
  limit: z.enum(['cpu', 'disk', 'read', 'write']).optional(),
  message: z.string(),
});
export type TaskSection = z.infer<typeof TaskSection>;

/**
 * Progress samples of one phase, in columns (app/common/phase-samples.ts): at `t[i]`
 * seconds since the phase started, `bytes[i]` bytes of the phase had moved, inside the phase's
 * file `file[i]` (its index among the phase's per-file records; for the recovery phase, the
 * probe's index in `recovery.probes`). Each file has a sample where its transfer began and one
 * where it ended (after a write's flush), and in between one at least every 0.25 s or every
 * 20 MiB (never more than a thousandth of the planned bytes); the time between two files is not
 * transfer time. `t` is rounded to 0.1 ms, bytes are exact.
 */
export const SampleColumns = z
  .object({
    t: z.array(z.number().nonnegative()),
    bytes: z.array(z.number().nonnegative()),
    file: z.array(z.number().int().nonnegative()),
  })
  .refine((c) => c.bytes.length === c.t.length && c.file.length === c.t.length, {
    message: 'the sample columns t, bytes and file must have one entry per sample each',
  });
export type SampleColumns = z.infer<typeof SampleColumns>;

export const SamplesByPhase = z.object({
  write: SampleColumns.optional(),
  read: SampleColumns.optional(),
  recovery: SampleColumns.optional(),
});
export type SamplesByPhase = z.infer<typeof SamplesByPhase>;

/** A version 1 document in the shape of the current one; anything else is left as it is. */
function migrateResult(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const document = input as { schema?: unknown; plan?: { scale?: unknown } };
  if (document.schema !== 'plumb.result/1') return input;
  const scale = typeof document.plan?.scale === 'number' ? document.plan.scale : 1;
  return { ...document, schema: resultSchemaVersion, scale };
}

/** What a drive returned in place of a block written with `--verify` (the first bad one). */
export const VerifyFound = z.object({
  kind: z.enum(['other-block', 'zeros', 'damaged']),
  /** For another block: the file and offset it was written as (null otherwise). */
  file: z.string().nullable(),
  offset: z.number().nonnegative().nullable(),
  /** Bytes into this run's writes where that block was written (null if not this run's). */
  runOffset: z.number().nonnegative().nullable(),
  /** Whether that block was written by this run (else an earlier one). */
  sameRun: z.boolean(),
});

/** `--verify`: every file read back and every 4 KiB block's stamp (file, offset) checked. */
export const VerifySection = z.object({
  files: z.number().int().nonnegative(),
  /** Files rotated out during the run to stay within the guard, so not read back. */
  filesNotChecked: z.number().int().nonnegative(),
  bytesChecked: z.number().nonnegative(),
  badBytes: z.number().nonnegative(),
  firstBad: z
    .object({
      file: z.string(),
      /** Offset of the first bad block in that file, and bytes into the run's writes. */
      offset: z.number().nonnegative(),
      runOffset: z.number().nonnegative(),
      found: VerifyFound,
    })
    .nullable(),
  verdict: z.enum(['passed', 'failed']),
  /** The finding in words. */
  message: z.string(),
  seconds: z.number().nonnegative(),
});
export type VerifySection = z.infer<typeof VerifySection>;

const ResultDocumentV2 = z.looseObject({
  schema: z.literal(resultSchemaVersion),
  /** The plan's --scale: 1 for a full run, below 1 for a quick run with every size shrunk. */
  scale: z.number().positive().max(1),
  /** Samples inside the files of each phase; absent in migrated version 1 documents. */
  samplesByPhase: SamplesByPhase.optional(),
  id: z.string().min(1),
  /** A label the user gave the run (results.rename). */
  name: z.string().optional(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  app: z.looseObject({ version: z.string() }),
  environment: z.looseObject({
    os: z.string(),
    volume: z.looseObject({
      path: z.string(),
      fsType: z.string().nullable(),
      totalBytes: z.number().nonnegative(),
      freeBytes: z.number().nonnegative(),
      bus: z.string().nullable(),
    }),
    cacheMode: z.enum(['direct', 'buffered']),
    /** How reads were kept from being served by the OS cache. */
    cacheDefeat: z.string().optional(),
    /** How the files of the read phase were dropped from the OS cache before it began. */
    cacheEviction: z.string().optional(),
    /**
     * The ceiling the rates were checked against: the interface's (from the bus or chosen), or
     * "any-ssd", the fastest SSD Plumb knows of, when none is known. Absent in results saved
     * before it was recorded (then no check can be claimed).
     */
    ceiling: z.object({ id: z.string(), label: z.string(), bytesPerSecond: rate }).optional(),
  }),
  plan: z.looseObject({ name: z.string() }),
  files: z.array(FileRecord),
  summary: z.looseObject({ write: PhaseSummary, read: PhaseSummary }),
  /**
   * The one headline rate per direction (app/core/analysis/headline-rate.ts has the rule; results
   * saved before it are given one when read) and what set it.
   */
  headline: z
    .object({
      write: z.object({ rate: nullableRate, basis: z.string() }),
      read: z.object({ rate: nullableRate, basis: z.string() }),
    })
    .optional(),
  findings: z.array(Finding),
  runs: z.array(QueueRunResult).optional(),
  recovery: z
    .object({ probes: z.array(RecoveryProbeRecord), recoverySeconds: z.number().nullable() })
    .optional(),
  paired: PairedSection.optional(),
  task: TaskSection.optional(),
  verify: VerifySection.optional(),
  /** Things the run did that a reader should know (rotation, stale folders removed, ...). */
  notices: z.array(z.string()).optional(),
});

/** A results document of any version this Plumb opens, parsed into the current shape. */
export const ResultDocument = z.preprocess(migrateResult, ResultDocumentV2);
export type ResultDocument = z.infer<typeof ResultDocumentV2>;

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

// ── Events ───────────────────────────────────────────────────────────────────────────────────

const runId = z.string().min(1);

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

export const benchEvents = {
  /** Everything a benchmark run reports, tagged with its runId. */
  'bench.event': BenchEvent,
} as const;

// ── Operations ───────────────────────────────────────────────────────────────────────────────

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
 * second window) to draw it and follow its `bench.event`s from here on.
 */
export const RunningBench = z.object({
  runId,
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
  /** Starts a run in the background; progress and the result arrive as `bench.event`. */
  'bench.start': { input: StartBenchInput, output: z.object({ runId }) },
  /** The runs going on now, from any window or page, so a reloaded page can follow them again. */
  'bench.running': {
    input: z.object({}).strict(),
    output: z.object({ runs: z.array(RunningBench) }),
  },
  /** Cancels a run; its test files are removed. False when no such run is going. */
  'bench.cancel': { input: z.object({ runId }), output: z.object({ cancelled: z.boolean() }) },
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
   * the event loop. With a `jobId` (chosen by the caller) `analysis.cancel` can stop it; closing
   * the page or window that asked stops it too.
   */
  'analysis.csv': {
    input: z.object({
      csv: z.string().min(1).max(50_000_000),
      phase: Phase.default('write'),
      interface: z.string().max(40).optional(),
      jobId: z.string().min(1).max(100).optional(),
    }),
    output: ResultDocument,
  },
  /** Stops an `analysis.csv` this page or window started (it fails with ECANCELED). */
  'analysis.cancel': {
    input: z.object({ jobId: z.string().min(1).max(100) }),
    output: z.object({ cancelled: z.boolean() }),
  },
} as const;
