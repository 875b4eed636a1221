/**
 * The presets kind: the familiar queue-depth grid of other tools (SEQ1M Q8T1 … RND4K Q1T1), each
 * run for a set time on one test file. Its engine part is app/core/bench/plan-kind-presets.ts.
 * Pure: imports nothing.
 */
import { formatBytes, formatRoundBytes } from './format.js';
import { planSeconds, type PlanFields, type PlanKind } from './plan-kind.js';
import { toBlocks } from './run-sizes.js';

export interface PresetsPlanFields extends PlanFields {
  kind: 'presets';
  fileBytes: number;
  durationSeconds: number;
  runs: readonly { name: string; op: 'read' | 'write' | 'randread' | 'randwrite' }[];
}

/** A grid run never lasts less than this, however small the scale. */
const minimumRunSeconds = 0.25;

const MiB = 1024 * 1024;

const grid = (op: 'read' | 'write') => {
  const random = op === 'read' ? 'randread' : 'randwrite';
  return [
    { name: `SEQ1M Q8T1 ${op}`, op, blockSize: MiB, queueDepth: 8, threads: 1 },
    { name: `SEQ1M Q1T1 ${op}`, op, blockSize: MiB, queueDepth: 1, threads: 1 },
    { name: `RND4K Q32T1 ${op}`, op: random, blockSize: 4096, queueDepth: 32, threads: 1 },
    { name: `RND4K Q1T1 ${op}`, op: random, blockSize: 4096, queueDepth: 1, threads: 1 },
  ] as const;
};

export const presetsPlanKind: PlanKind<PresetsPlanFields> = {
  kind: 'presets',
  options: {
    total: null,
    verify: 'never',
    secondFolder: false,
    quickScale: true,
    seeded: false,
    switches: [],
  },
  builtins: [
    {
      plan: {
        schema: 'plumb.plan/1',
        name: 'presets',
        description:
          'SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1, read and write, 5 s each on a 1 GiB file.',
        kind: 'presets',
        fileBytes: 1024 * MiB,
        durationSeconds: 5,
        runs: [...grid('read'), ...grid('write')],
      },
      title: 'Queue-depth grid',
      reveals:
        'The familiar grid of other benchmark tools (sequential and random, deep and shallow queues), for comparing with their figures.',
      usage: ['SEQ1M Q8T1 ... RND4K Q1T1, read and write'],
    },
  ],
  directions(plan) {
    const ops = new Set(plan.runs.map((run) => (run.op.endsWith('write') ? 'write' : 'read')));
    return (['write', 'read'] as const).filter((d) => ops.has(d));
  },
  describe: (plan) =>
    `${plan.runs.map((r) => r.name).join(', ')}: ${planSeconds(plan.durationSeconds)} each on a ${formatBytes(plan.fileBytes)} file.`,
  summary: (plan) =>
    `${plan.runs.length} queue-depth runs of ${+plan.durationSeconds.toFixed(2)} s each on one ${formatRoundBytes(plan.fileBytes)} file.`,
  scaleSizes<T extends PresetsPlanFields>(plan: T, factor: number): T {
    return {
      ...plan,
      fileBytes: toBlocks(plan.fileBytes * factor),
      durationSeconds: Math.max(minimumRunSeconds, plan.durationSeconds * factor),
    };
  },
  size(plan, room) {
    return {
      plan,
      writeBytes: plan.fileBytes,
      readBytes: 0,
      spaceBytes: plan.fileBytes,
      fits: plan.fileBytes <= room.allowanceBytes,
      files: null,
      // It runs for its set times, not to a count of bytes.
      progress: { bytes: null, files: null },
      notes: [],
      recorded: {},
    };
  },
  // The grid's own setup (its file, written first) is in the per-run cost measured.
  time: (run, rates) => ({
    seconds: run.plan.runs.length * (run.plan.durationSeconds + rates.queueRunSeconds),
    recoveryChecks: null,
  }),
};
