/**
 * The files kind (seeds 001 and 004): write a list of files, then read them all back with the
 * cache defeated. Its engine part is app/core/bench/plan-kind-files.ts. Pure: imports nothing.
 */
import { formatRoundBytes } from './format.js';
import { sizeRange, type PlanFields, type PlanKind } from './plan-kind.js';
import { logUniformSizes, toBlocks } from './run-sizes.js';

export interface FilesPlanFields extends PlanFields {
  kind: 'files';
  /** Explicit sizes, in order; or `count` sizes spread log-uniformly between two bounds. */
  sizes?: readonly number[];
  logUniform?: { count: number; minBytes: number; maxBytes: number };
  repeats: number;
  shuffle: boolean;
  readBack: boolean;
}

/** The sizes a files plan writes, each repeated, in the plan's order (the engine shuffles them). */
export function filesPlanSizes(plan: FilesPlanFields): number[] {
  const base =
    plan.sizes ??
    logUniformSizes(plan.logUniform!.count, plan.logUniform!.minBytes, plan.logUniform!.maxBytes);
  return base.flatMap((size) => Array.from({ length: plan.repeats }, () => size));
}

/** The count and bounds of the plan's sizes before repeats (its explicit sizes first, as run). */
function bounds(plan: FilesPlanFields): { count: number; low: number; high: number } {
  if (plan.sizes)
    return {
      count: plan.sizes.length,
      low: Math.min(...plan.sizes),
      high: Math.max(...plan.sizes),
    };
  const { count, minBytes, maxBytes } = plan.logUniform ?? { count: 0, minBytes: 0, maxBytes: 0 };
  return { count, low: minBytes, high: maxBytes };
}

export const filesPlanKind: PlanKind<FilesPlanFields> = {
  kind: 'files',
  options: {
    total: null,
    verify: 'optional',
    secondFolder: false,
    quickScale: true,
    seeded: true,
    switches: [],
  },
  builtins: [
    {
      plan: {
        schema: 'plumb.plan/1',
        name: 'standard',
        description:
          '160 files from 2 MB to 2 GB (log-uniform sizes, shuffled), all written, then all read back uncached.',
        kind: 'files',
        logUniform: { count: 160, minBytes: 2e6, maxBytes: 2e9 },
        repeats: 1,
        shuffle: true,
        readBack: true,
      },
      title: 'Standard',
      reveals:
        'The honest everyday speed: how fast the disk writes and reads files from small to large, without the system cache flattering it.',
      usage: ['160 files, 2 MB to 2 GB, written then read back uncached'],
    },
    {
      plan: {
        schema: 'plumb.plan/1',
        name: 'series',
        description: '10 KB to 2 GB in 14 steps, 3 repeats each, written then read back uncached.',
        kind: 'files',
        sizes: [
          10e3, 100e3, 500e3, 1e6, 5e6, 10e6, 50e6, 100e6, 200e6, 400e6, 600e6, 800e6, 1e9, 2e9,
        ],
        repeats: 3,
        shuffle: false,
        readBack: true,
      },
      title: 'Size series',
      reveals:
        'Where speed tops out: the same sizes three times each, from tiny to large, so you see the curve rise and level off.',
      usage: ['10 KB to 2 GB in 14 sizes, 3 repeats each'],
    },
  ],
  directions: (plan) => (plan.readBack ? ['write', 'read'] : ['write']),
  describe(plan) {
    const { count, low, high } = bounds(plan);
    // In plain words; "log-uniform" is the Details' word for the first.
    const how = [
      plan.sizes ? null : 'as many small sizes as large',
      plan.shuffle ? 'in random order' : null,
    ]
      .filter(Boolean)
      .join(', ');
    const repeats = plan.repeats > 1 ? `, ${plan.repeats} repeats each` : '';
    const read = plan.readBack ? ', written then read back uncached' : ', written';
    return `${count} ${count === 1 ? 'file' : 'files'} of ${sizeRange(low, high)}${how ? ` (${how})` : ''}${repeats}${read}.`;
  },
  summary(plan) {
    const { count, low, high } = bounds(plan);
    return `${count * plan.repeats} files from ${formatRoundBytes(low)} to ${formatRoundBytes(high)}${plan.shuffle ? ' in random order' : ''}, written${plan.readBack ? ' then read back' : ''}.`;
  },
  scaleSizes<T extends FilesPlanFields>(plan: T, factor: number): T {
    const size = (bytes: number) => toBlocks(bytes * factor);
    return {
      ...plan,
      sizes: plan.sizes?.map(size),
      logUniform: plan.logUniform && {
        ...plan.logUniform,
        minBytes: size(plan.logUniform.minBytes),
        maxBytes: size(plan.logUniform.maxBytes),
      },
    };
  },
  size(plan, room) {
    const sizes = filesPlanSizes(plan);
    const written = sizes.reduce((sum, bytes) => sum + bytes, 0);
    const passes = plan.readBack ? 2 : 1;
    return {
      plan,
      writeBytes: written,
      readBytes: plan.readBack ? written : 0,
      spaceBytes: written,
      fits: written <= room.allowanceBytes,
      files: passes * sizes.length,
      // A check reads every file once more; its reads are not file records.
      progress: { bytes: written * (passes + (room.verify ? 1 : 0)), files: passes * sizes.length },
      notes: [],
      recorded: {},
    };
  },
  time(run, rates) {
    const count = filesPlanSizes(run.plan).length;
    const reading = run.plan.readBack
      ? count * rates.readFileSeconds + run.readBytes / rates.readRate
      : 0;
    return {
      seconds:
        rates.runSeconds +
        count * rates.writeFileSeconds +
        run.writeBytes / rates.writeRate +
        reading,
      recoveryChecks: null,
    };
  },
};
