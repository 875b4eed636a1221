/**
 * The sustained kind (seeds 001 and 003): keep writing files until past the cache to find the
 * cliff, then idle and probe until the rate is back. Its engine part is
 * app/core/bench/plan-kind-sustained.ts. Pure: imports nothing.
 */
import { formatBytes, formatRoundBytes } from './format.js';
import { atScale, planSeconds, sizeRange, type PlanFields, type PlanKind } from './plan-kind.js';
import {
  cacheGuessBytes,
  recoveryProbeSize,
  sustainedDefaultTotal,
  toBlocks,
} from './run-sizes.js';

export interface SustainedPlanFields extends PlanFields {
  kind: 'sustained';
  minFileBytes: number;
  maxFileBytes: number;
  /** Null: the smaller of the free-space allowance and 4 × a guess of the cache. */
  totalBytes: number | null;
  timeLimitSeconds: number | null;
  recovery: { idleSeconds: number; probeBytes: number; maxProbes: number } | null;
}

/**
 * The total a sustained run writes: the option, the plan's, or the automatic default (the smaller
 * of the allowance and 4 × the cache guess) shrunk by `scale` like every other size of the plan.
 */
export function sustainedTotal(
  plan: Pick<SustainedPlanFields, 'totalBytes'>,
  totalOption: number | undefined,
  allowanceBytes: number,
  cacheGuess: number,
  scale = 1,
): number {
  return totalOption ?? plan.totalBytes ?? sustainedDefaultTotal(allowanceBytes, cacheGuess, scale);
}

function describe(plan: SustainedPlanFields): string {
  const limits = [
    plan.totalBytes === null ? null : formatBytes(plan.totalBytes),
    plan.timeLimitSeconds === null ? null : planSeconds(plan.timeLimitSeconds),
  ].filter(Boolean);
  const until = limits.length ? limits.join(' or ') : 'a total set from the free space';
  const probe = plan.recovery
    ? `, then idle ${planSeconds(plan.recovery.idleSeconds)} and probe with ${formatBytes(plan.recovery.probeBytes)} until the rate is back`
    : '';
  return `Files of ${sizeRange(plan.minFileBytes, plan.maxFileBytes)} until ${until}${probe}.`;
}

export const sustainedPlanKind: PlanKind<SustainedPlanFields> = {
  kind: 'sustained',
  options: {
    total: { label: 'Write in all', placeholder: 'e.g. 200 GB' },
    verify: 'optional',
    secondFolder: false,
    quickScale: true,
    seeded: true,
    switches: [
      {
        id: 'time-recovery',
        label: 'Time the recovery after a cliff',
        offered: (plan) => plan.recovery !== null,
        off: (plan) => ({ ...plan, recovery: null }),
      },
    ],
  },
  builtins: [
    {
      plan: {
        schema: 'plumb.plan/1',
        name: 'sustained',
        description:
          'Files of 200 MB to 2 GB until a total (default: the smaller of the free-space allowance and 4 × a guess of the cache), then idle-and-probe until the rate is back.',
        kind: 'sustained',
        minFileBytes: 200e6,
        maxFileBytes: 2e9,
        totalBytes: null,
        timeLimitSeconds: null,
        recovery: { idleSeconds: 30, probeBytes: 2e9, maxProbes: 20 },
      },
      title: 'Sustained write',
      reveals:
        'What happens on a long copy: when the fast write cache fills, how far the speed falls, and how long the disk takes to recover.',
      usage: ['write until past the cache, find the cliff, time the recovery'],
    },
  ],
  directions: () => ['write'],
  describe,
  summary: (plan) =>
    `Files of ${formatRoundBytes(plan.minFileBytes)} to ${formatRoundBytes(plan.maxFileBytes)} written back to back${plan.recovery ? ', then rests and writes short probes to time how long the cache takes to recover' : ''}.`,
  // Idle times do not shrink: a cache empties at its own pace.
  scaleSizes<T extends SustainedPlanFields>(plan: T, factor: number): T {
    const size = (bytes: number) => toBlocks(bytes * factor);
    return {
      ...plan,
      minFileBytes: size(plan.minFileBytes),
      maxFileBytes: size(plan.maxFileBytes),
      totalBytes: plan.totalBytes === null ? null : size(plan.totalBytes),
      recovery: plan.recovery && { ...plan.recovery, probeBytes: size(plan.recovery.probeBytes) },
    };
  },
  size(plan, room) {
    const { allowanceBytes } = room;
    const total = sustainedTotal(
      plan,
      room.totalBytes,
      allowanceBytes,
      cacheGuessBytes(room.volumeBytes, room.availableBytes),
      room.scale,
    );
    // The recovery probes sized now, so the run says before it starts what it does after a cliff.
    const probe = plan.recovery
      ? recoveryProbeSize(plan.recovery.probeBytes, allowanceBytes, plan.minFileBytes)
      : null;
    let sized = plan;
    if (plan.recovery && probe?.note) {
      const recovery =
        probe.probeBytes === null ? null : { ...plan.recovery, probeBytes: probe.probeBytes };
      // Described from the sizes it runs with (a quick run's words say its share).
      const description = atScale(room.scale, describe({ ...plan, recovery, totalBytes: total }));
      sized = { ...plan, recovery, description };
    }
    return {
      plan: sized,
      writeBytes: total,
      readBytes: 0,
      spaceBytes: Math.min(total, allowanceBytes),
      // Room for one file at a time: it rotates its oldest files out to keep within the guard.
      fits: total > 0 && allowanceBytes >= Math.min(total, plan.maxFileBytes),
      files: null,
      progress: {
        bytes: total + (room.verify ? Math.min(total, allowanceBytes) : 0),
        files: null,
      },
      notes: probe?.note ? [probe.note] : [],
      recorded: { totalBytes: total },
    };
  },
  time(run, rates) {
    const { plan, writeBytes } = run;
    // Files are drawn log-uniformly between the two sizes; their mean gives their number.
    const smallest = plan.minFileBytes;
    const largest = plan.maxFileBytes;
    const meanFile =
      largest > smallest ? (largest - smallest) / Math.log(largest / smallest) : largest;
    return {
      seconds:
        rates.runSeconds +
        Math.ceil(writeBytes / meanFile) * rates.writeFileSeconds +
        writeBytes / rates.writeRate,
      recoveryChecks: plan.recovery
        ? {
            seconds:
              plan.recovery.idleSeconds +
              rates.writeFileSeconds +
              plan.recovery.probeBytes / rates.writeRate,
            most: plan.recovery.maxProbes,
          }
        : null,
    };
  },
};
