import { planSchemaVersion, type Plan } from '../../contract/bench.js';

const KB = 1e3;
const MB = 1e6;
const GB = 1e9;
const MiB = 1024 * 1024;

/** The "gold standard" (seed 001): 160 files from 2 MB to 2 GB, shuffled, written then read back. */
const standard: Plan = {
  schema: planSchemaVersion,
  name: 'standard',
  description:
    '160 files from 2 MB to 2 GB (log-uniform sizes, shuffled), all written, then all read back uncached.',
  kind: 'files',
  logUniform: { count: 160, minBytes: 2 * MB, maxBytes: 2 * GB },
  repeats: 1,
  shuffle: true,
  readBack: true,
};

/** The series of seed 004: fourteen sizes from 10 KB to 2 GB, three times each. */
const series: Plan = {
  schema: planSchemaVersion,
  name: 'series',
  description: '10 KB to 2 GB in 14 steps, 3 repeats each, written then read back uncached.',
  kind: 'files',
  sizes: [10, 100, 500]
    .map((k) => k * KB)
    .concat(
      [1, 5, 10, 50, 100, 200, 400, 600, 800].map((m) => m * MB),
      [1, 2].map((g) => g * GB),
    ),
  repeats: 3,
  shuffle: false,
  readBack: true,
};

/** Seeds 001 and 003: write until past the cache to find the cliff, then time the recovery. */
const sustained: Plan = {
  schema: planSchemaVersion,
  name: 'sustained',
  description:
    'Files of 200 MB to 2 GB until a total (default: the smaller of the free-space allowance and 4 × a guess of the cache), then idle-and-probe until the rate is back.',
  kind: 'sustained',
  minFileBytes: 200 * MB,
  maxFileBytes: 2 * GB,
  totalBytes: null,
  timeLimitSeconds: null,
  recovery: { idleSeconds: 30, probeBytes: 2 * GB, maxProbes: 20 },
};

/**
 * The capacity check of f3 and h2testw: fill the free space with stamped files, read every block
 * back. 1 GB files as theirs, so a 2 TB drive is a couple of thousand files.
 */
const capacity: Plan = {
  schema: planSchemaVersion,
  name: 'capacity',
  description:
    'Fills the free space (all but what Plumb keeps free) with 1 GB files whose every 4 KiB block is stamped, then reads them all back and checks every block, as f3 and h2testw do: a drive that stores less than it reports is caught. The writing is timed, so its rate curve (and any cache cliff) comes free.',
  kind: 'capacity',
  fileBytes: 1 * GB,
  totalBytes: null,
};

const grid = (op: 'read' | 'write') => {
  const verb = op === 'read' ? 'read' : 'write';
  const random = op === 'read' ? 'randread' : 'randwrite';
  return [
    { name: `SEQ1M Q8T1 ${verb}`, op, blockSize: MiB, queueDepth: 8, threads: 1 },
    { name: `SEQ1M Q1T1 ${verb}`, op, blockSize: MiB, queueDepth: 1, threads: 1 },
    { name: `RND4K Q32T1 ${verb}`, op: random, blockSize: 4096, queueDepth: 32, threads: 1 },
    { name: `RND4K Q1T1 ${verb}`, op: random, blockSize: 4096, queueDepth: 1, threads: 1 },
  ] as const;
};

/** The familiar grid of other tools, for comparison with them. */
const presets: Plan = {
  schema: planSchemaVersion,
  name: 'presets',
  description:
    'SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1, read and write, 5 s each on a 1 GiB file.',
  kind: 'presets',
  fileBytes: 1024 * MiB,
  durationSeconds: 5,
  runs: [...grid('read'), ...grid('write')],
};

/**
 * Seed 000: two targets alone, then together — both writing, both reading, one writing while the
 * other reads — to tell whether they share a bottleneck (a dock's link, a hub, a controller).
 */
const paired: Plan = {
  schema: planSchemaVersion,
  name: 'paired',
  description:
    'Two folders: 10 files of 400 MB each alone, then both together (both writing, both reading, one writing while the other reads), to show whether they slow each other.',
  kind: 'paired',
  fileBytes: 400 * MB,
  filesPerStage: 10,
  direction: 'both',
};

/** Seed 002: is compressing a large file disk-bound on this volume? */
const task: Plan = {
  schema: planSchemaVersion,
  name: 'task',
  description:
    'Compress a 4 GB partly compressible file with every core, from and to the disk and from and to memory, to show whether the task is disk-bound here.',
  kind: 'task',
  inputBytes: 4 * GB,
  chunkBytes: 4 * MiB,
  codec: 'auto',
  workers: null,
  compressibleShare: 0.5,
  repeats: 2,
};

export const builtinPlans: readonly Plan[] = [
  standard,
  series,
  sustained,
  capacity,
  presets,
  paired,
  task,
];

export function builtinPlan(name: string): Plan | undefined {
  return builtinPlans.find((plan) => plan.name === name);
}
