/**
 * The results document (plumb.result/2), the public file format of DESIGN.md: what a run
 * measured, its findings, and the sections its kind adds. Version 1 documents open as version 2.
 */
import { z } from 'zod';
import { QueueOp } from './plan.js';

const rate = z.number().nonnegative();

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
  /** 'unreadable': the drive answered the read with an I/O error (nothing came back). */
  kind: z.enum(['other-block', 'zeros', 'damaged', 'unreadable']),
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
