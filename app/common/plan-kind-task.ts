/**
 * The task kind (seed 002): a real workload — compress a large, partly compressible file with
 * every core, from and to the target, and the same from and to memory — to tell whether the task
 * is disk-bound. Its engine part is app/core/bench/plan-kind-task.ts. Pure: imports nothing.
 */
import { formatBytes, formatRoundBytes } from './format.js';
import type { PlanFields, PlanKind } from './plan-kind.js';
import { toBlocks } from './run-sizes.js';

export interface TaskPlanFields extends PlanFields {
  kind: 'task';
  inputBytes: number;
  /** Compressed independently and in parallel, like pigz or zstd -T0. */
  chunkBytes: number;
  /** Times the disk and memory runs are each repeated; the best of each is compared. */
  repeats: number;
}

export const taskPlanKind: PlanKind<TaskPlanFields> = {
  kind: 'task',
  options: {
    total: null,
    verify: 'never',
    secondFolder: false,
    quickScale: true,
    seeded: true,
    switches: [],
  },
  builtins: [
    {
      plan: {
        schema: 'plumb.plan/1',
        name: 'task',
        description:
          'Compress a 4 GB partly compressible file with every core, from and to the disk and from and to memory, to show whether the task is disk-bound here.',
        kind: 'task',
        inputBytes: 4e9,
        chunkBytes: 4 * 1024 * 1024,
        codec: 'auto',
        workers: null,
        compressibleShare: 0.5,
        repeats: 2,
      },
      title: 'Real task',
      reveals:
        'Whether a real job (compressing a large file on every core) is held back by this disk, or would run no faster on a quicker one.',
      usage: [
        'compress a 4 GB file on every core from and to DIR and in memory; says',
        'whether the task is disk-bound on this volume',
      ],
    },
  ],
  directions: () => ['write', 'read'],
  describe: (plan) =>
    `Compress a ${formatBytes(plan.inputBytes)} partly compressible file in ${formatBytes(plan.chunkBytes)} chunks with every core, from and to the disk and in memory, ${plan.repeats} ${plan.repeats === 1 ? 'time' : 'times'} each.`,
  summary: (plan) =>
    `Compress a ${formatRoundBytes(plan.inputBytes)} file on every core, on the disk and in memory, ${plan.repeats} times each.`,
  // Chunks keep their size, so the work per thread stays real, unless the input is smaller.
  scaleSizes<T extends TaskPlanFields>(plan: T, factor: number): T {
    const inputBytes = toBlocks(plan.inputBytes * factor);
    return { ...plan, inputBytes, chunkBytes: Math.min(inputBytes, plan.chunkBytes) };
  },
  size(plan, room) {
    const input = plan.inputBytes;
    return {
      plan,
      // A timed write of the input's size, the input itself, and per repeat the task's output
      // (at most the input); per repeat an uncached read and the task's own read.
      writeBytes: (2 + plan.repeats) * input,
      readBytes: 2 * plan.repeats * input,
      // Its input and an output no larger than the input.
      spaceBytes: 2 * input,
      fits: 2 * input <= room.allowanceBytes,
      files: null,
      // The progress counts the timed transfers: a write and a read per repeat.
      progress: { bytes: input * (1 + plan.repeats), files: null },
      notes: [],
      recorded: {},
    };
  },
  // Compression time is not known in advance: the disk's share only.
  time: (run, rates) => ({
    seconds: rates.runSeconds + run.writeBytes / rates.writeRate + run.readBytes / rates.readRate,
    recoveryChecks: null,
  }),
};
