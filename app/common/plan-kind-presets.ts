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

/**
 * A grid test's code in words, for a reader who does not know CrystalDiskMark's: "SEQ1M Q8T1" is
 * "Sequential, large blocks, 8 at once", "RND4K Q1T1" "Random, small blocks, one at a time". Null
 * for a name in another form (a plan file's own names); the code stays beside the words as a label.
 */
export function queueTestWords(name: string): string | null {
  const code = /^(SEQ|RND)(\d+)([KM])\s+Q(\d+)T(\d+)\b/i.exec(name.trim());
  if (!code) return null;
  const [, kind, size, unit, depth, threads] = code;
  const blockBytes = Number(size) * (unit!.toUpperCase() === 'M' ? MiB : 1024);
  const queue = Number(depth) === 1 ? 'one at a time' : `${Number(depth)} at once`;
  const workers = Number(threads) > 1 ? `, ${Number(threads)} threads` : '';
  return `${kind!.toUpperCase() === 'SEQ' ? 'Sequential' : 'Random'}, ${blockBytes >= 128 * 1024 ? 'large' : 'small'} blocks, ${queue}${workers}`;
}

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
          'Sequential reads and writes in large blocks, and random ones in small blocks, many at once and one at a time (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1), 5 s each on a 1 GiB file.',
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
  describe: (plan) => {
    // Each test once, in words first ("Sequential, large blocks, 8 at once"), its code after.
    const tests = [...new Set(plan.runs.map((r) => r.name.replace(/\s+(read|write)\b.*$/i, '')))];
    const words = tests.map((test) => {
      const plain = queueTestWords(test);
      return plain ? `${plain} (${test})` : test;
    });
    const reads = plan.runs.some((r) => !r.op.endsWith('write'));
    const writes = plan.runs.some((r) => r.op.endsWith('write'));
    const both = reads && writes ? ', each read and written' : '';
    return `${words.join('; ')}${both}: ${planSeconds(plan.durationSeconds)} each on a ${formatBytes(plan.fileBytes)} file.`;
  },
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
