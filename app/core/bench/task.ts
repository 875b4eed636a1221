/**
 * The task plan (seed 002): a real workload timed on the target. Compress a partly compressible
 * file with every core, reading it from the target (cold: its cached pages dropped first) and
 * writing the output there (flushed before the clock stops); then the same from and to memory,
 * where the CPU alone sets the pace. The gap between the two says whether the task is disk-bound.
 */
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TaskSection } from '../../contract/bench-result.js';
import type { TaskPlan } from '../../contract/plan.js';
import { aggregateRate } from '../analysis/aggregate-rate.js';
import { diskBound } from '../analysis/disk-bound.js';
import { formatRate } from '../../common/format.js';
import { cancelledError } from './bench-io.js';
import { CompressionPool, defaultLevel, defaultWorkers, resolveCodec } from './compression-pool.js';
import type { RunContext } from './run-context.js';
import { taskInput, type TaskInput } from './task-input.js';

/**
 * The task's own reads, writes and compression happen here, not through BenchIO, so they are
 * timed with the process's monotonic clock.
 */
const realSeconds = () => performance.now() / 1000;

export interface ChunkPipeline {
  chunkCount: number;
  /** The bytes of chunk `index` (from the disk or memory). */
  read(index: number): Promise<Uint8Array>;
  /** Takes compressed chunks in order. */
  write(index: number, compressed: Uint8Array): Promise<void>;
  pool: CompressionPool;
  signal: AbortSignal;
}

interface Gate {
  promise: Promise<void>;
  open: () => void;
}

/**
 * Compresses every chunk: enough chunks in flight to keep every thread busy while others are
 * read, outputs written strictly in order, at most two chunks per thread held at a time.
 * Returns the compressed bytes.
 */
export async function compressChunks(pipeline: ChunkPipeline): Promise<number> {
  const { chunkCount, pool, signal } = pipeline;
  let next = 0;
  let outputBytes = 0;
  const gates = new Map<number, Gate>();
  const gate = (index: number): Gate => {
    let found = gates.get(index);
    if (!found) {
      let openGate!: () => void;
      const promise = new Promise<void>((resolve) => (openGate = resolve));
      found = { promise, open: openGate };
      gates.set(index, found);
    }
    return found;
  };
  let fail!: (error: unknown) => void;
  const failure = new Promise<never>((_, reject) => (fail = reject));
  failure.catch(() => undefined);
  const onAbort = () => fail(cancelledError());
  signal.addEventListener('abort', onAbort, { once: true });

  const lane = async () => {
    for (;;) {
      if (signal.aborted) throw cancelledError();
      const index = next++;
      if (index >= chunkCount) return;
      const data = await Promise.race([pipeline.read(index), failure]);
      const compressed = await Promise.race([pool.compress(data), failure]);
      if (index > 0) await Promise.race([gate(index - 1).promise, failure]);
      await pipeline.write(index, compressed);
      outputBytes += compressed.byteLength;
      gates.delete(index - 1);
      gate(index).open();
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(chunkCount, 2 * pool.workers)) }, () =>
        lane().catch((error: unknown) => {
          fail(error);
          throw error;
        }),
      ),
    );
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  return outputBytes;
}

/** One compression of the whole input from and to files on the target, flushed; seconds. */
async function compressOnDisk(
  context: RunContext,
  input: TaskInput,
  inputFile: string,
  outputFile: string,
  pool: CompressionPool,
): Promise<{ seconds: number; outputBytes: number }> {
  const start = realSeconds();
  const source = await open(inputFile, 'r');
  try {
    const sink = await open(outputFile, 'w');
    try {
      let position = 0;
      const outputBytes = await compressChunks({
        chunkCount: input.chunkCount,
        pool,
        signal: context.options.signal,
        async read(index) {
          const length = Math.min(input.chunkBytes, input.inputBytes - index * input.chunkBytes);
          const buffer = Buffer.allocUnsafe(length);
          const { bytesRead } = await source.read(buffer, 0, length, index * input.chunkBytes);
          return buffer.subarray(0, bytesRead);
        },
        async write(_index, compressed) {
          await sink.write(compressed, 0, compressed.byteLength, position);
          position += compressed.byteLength;
        },
      });
      await sink.sync(); // the output is on the disk before the clock stops
      await sink.close();
      return { seconds: realSeconds() - start, outputBytes };
    } catch (error) {
      await sink.close().catch(() => undefined);
      throw error;
    }
  } finally {
    await source.close();
  }
}

/** The same compression from and to memory: the CPU-bound rate. */
async function compressInMemory(
  context: RunContext,
  input: TaskInput,
  pool: CompressionPool,
): Promise<{ seconds: number; outputBytes: number }> {
  const start = realSeconds();
  const outputBytes = await compressChunks({
    chunkCount: input.chunkCount,
    pool,
    signal: context.options.signal,
    read: async (index) => input.chunk(index),
    write: async () => undefined, // kept only as long as it takes to count it
  });
  return { seconds: realSeconds() - start, outputBytes };
}

/** Writes the task's input file to the target through the OS and flushes it. */
async function writeInput(file: string, input: TaskInput, context: RunContext): Promise<void> {
  const handle = await open(file, 'w');
  try {
    for (let index = 0; index < input.chunkCount; index += 1) {
      context.checkCancelled();
      const chunk = input.chunk(index);
      await handle.write(chunk, 0, chunk.length, index * input.chunkBytes);
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Runs the task plan in `folder`: the disk's own uncached write and read rates first (recorded as
 * files), then, `repeats` times, the task from and to the disk (input made cold again each time)
 * and from and to memory. Returns the task section of the result.
 */
export async function runTaskPlan(
  context: RunContext,
  folder: string,
  plan: TaskPlan,
  seed: number,
): Promise<TaskSection> {
  const codec = resolveCodec(plan.codec);
  const level = plan.level ?? defaultLevel[codec];
  const workers = plan.workers ?? defaultWorkers();
  const input = taskInput(plan.inputBytes, plan.chunkBytes, plan.compressibleShare, seed);
  const inputFile = path.join(folder, 'task-input.dat');
  const outputFile = path.join(folder, `task-output.${codec === 'zstd' ? 'zst' : 'gz'}`);
  const scratch = path.join(folder, 'task-write.dat');

  // The disk's own rates for a file of this size (seed 002 measured write speed first).
  context.emit({ type: 'phase-started', phase: 'write' });
  await context.ensureRoom(plan.inputBytes, false);
  const writeStart = context.io.now();
  const written = await context.timedWrite(scratch, plan.inputBytes, 'write');
  await context.record('write', written, writeStart, 1);
  await rm(scratch, { force: true });

  await context.ensureRoom(plan.inputBytes, false);
  await writeInput(inputFile, input, context);

  const pool = new CompressionPool(codec, level, workers);
  const runs: TaskSection['runs'] = [];
  try {
    context.emit({ type: 'phase-started', phase: 'read' });
    const readStart = context.io.now();
    for (let repeat = 0; repeat < plan.repeats; repeat += 1) {
      // An uncached read of the input: drops its cached pages, so the task reads it cold.
      const read = await context.timedRead(inputFile);
      await context.record('read', read, readStart, plan.repeats);

      await context.ensureRoom(plan.inputBytes, false);
      const disk = await compressOnDisk(context, input, inputFile, outputFile, pool);
      await rm(outputFile, { force: true });
      const memory = await compressInMemory(context, input, pool);
      for (const [where, timing] of [
        ['disk', disk],
        ['memory', memory],
      ] as const) {
        const rate = timing.seconds > 0 ? plan.inputBytes / timing.seconds : 0;
        runs.push({ where, inputBytes: plan.inputBytes, ...timing, rate });
        context.emit({
          type: 'notice',
          message: `Compressing ${where === 'disk' ? 'from and to the disk' : 'in memory'} (${repeat + 1} of ${plan.repeats}): ${formatRate(rate)}.`,
        });
      }
    }
  } finally {
    await pool.close();
    await rm(inputFile, { force: true });
    await rm(outputFile, { force: true });
  }

  const best = (where: 'disk' | 'memory') =>
    Math.max(...runs.filter((r) => r.where === where).map((r) => r.rate));
  const diskRate = best('disk');
  const memoryRate = best('memory');
  const compressionRatio = runs[0]!.outputBytes / plan.inputBytes;
  const verdict = diskBound({
    diskRate,
    memoryRate,
    compressionRatio,
    writeRate: aggregateRate([written]),
    readRate: aggregateRate(context.files.filter((f) => f.phase === 'read')),
  });
  return {
    codec,
    level,
    workers,
    chunkBytes: input.chunkBytes,
    inputBytes: plan.inputBytes,
    compressionRatio,
    runs,
    diskRate,
    memoryRate,
    ...verdict,
  };
}
