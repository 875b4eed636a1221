/**
 * The capacity kind, the check f3 and h2testw make: fill the space a run may use with files whose
 * every 4 KiB block is stamped, then read them all back and check each block, so a drive that
 * stores less than it reports is caught. Its engine part is app/core/bench/plan-kind-capacity.ts.
 * Pure: imports nothing.
 */
import { formatBytes, formatRoundBytes } from './format.js';
import type { PlanFields, PlanKind } from './plan-kind.js';
import { capacityFillBytes, capacityMinimumBytes, toBlocks } from './run-sizes.js';

export interface CapacityPlanFields extends PlanFields {
  kind: 'capacity';
  /** Size of each file written (the last takes what is left). */
  fileBytes: number;
  /** Null: all the free-space allowance, the point of the check; else at most this much. */
  totalBytes: number | null;
}

export const capacityPlanKind: PlanKind<CapacityPlanFields> = {
  kind: 'capacity',
  options: {
    total: { label: 'Check at most', placeholder: 'all the free space' },
    verify: 'always',
    secondFolder: false,
    // A capacity check proves only what it fills.
    quickScale: false,
    seeded: false,
    switches: [],
  },
  builtins: [
    {
      // 1 GB files as f3's and h2testw's, so a 2 TB drive is a couple of thousand files.
      plan: {
        schema: 'plumb.plan/1',
        name: 'capacity',
        description:
          'Fills the free space (all but what Plumb keeps free) with 1 GB files whose every 4 KiB block is stamped, then reads them all back and checks every block, as f3 and h2testw do: a drive that stores less than it reports is caught. The writing is timed, so its rate curve (and any cache cliff) comes free.',
        kind: 'capacity',
        fileBytes: 1e9,
        totalBytes: null,
      },
      title: 'Capacity check',
      reveals:
        'Whether the disk really holds what it claims, as f3 and h2testw check: fake sticks and failing drives lose data past their true size. Its write speed over the whole fill comes free.',
      usage: [
        'fill the free space, read it all back and check every 4 KiB block: says',
        'whether the drive holds what it claims (as f3 and h2testw)',
      ],
    },
  ],
  directions: () => ['write', 'read'],
  describe(plan) {
    const fill =
      plan.totalBytes === null
        ? 'the free space (all but what Plumb keeps free)'
        : `up to ${formatBytes(plan.totalBytes)} of the free space`;
    return `Fill ${fill} with files of ${formatBytes(plan.fileBytes)}, every 4 KiB block stamped, then read them all back and check every block.`;
  },
  summary: (plan) =>
    `${plan.totalBytes === null ? 'The free space' : `Up to ${formatRoundBytes(plan.totalBytes)}`} filled with ${formatRoundBytes(plan.fileBytes)} files, then every block read back and checked.`,
  scaleSizes<T extends CapacityPlanFields>(plan: T, factor: number): T {
    const size = (bytes: number) => toBlocks(bytes * factor);
    return {
      ...plan,
      fileBytes: size(plan.fileBytes),
      totalBytes: plan.totalBytes === null ? null : size(plan.totalBytes),
    };
  },
  size(plan, room) {
    const fill = capacityFillBytes(
      room.allowanceBytes,
      room.totalBytes ?? plan.totalBytes,
      room.scale,
    );
    const count = Math.ceil(fill / plan.fileBytes);
    return {
      plan,
      // Every byte written is read back and checked.
      writeBytes: fill,
      readBytes: fill,
      spaceBytes: Math.max(fill, capacityMinimumBytes),
      fits: fill >= capacityMinimumBytes,
      files: 2 * count,
      // The check's reads are not file records: the count is the disk's, not the plan's.
      progress: { bytes: 2 * fill, files: null },
      notes: [],
      // What it filled, and what it could have (its verdict's measure).
      recorded: { totalBytes: fill, allowanceBytes: room.allowanceBytes },
    };
  },
  time(run, rates) {
    const count = Math.ceil(run.writeBytes / run.plan.fileBytes);
    return {
      seconds:
        rates.runSeconds +
        count * (rates.writeFileSeconds + rates.readFileSeconds) +
        run.writeBytes / rates.writeRate +
        run.readBytes / rates.readRate,
      recoveryChecks: null,
    };
  },
};
