/**
 * The paired kind (seed 000, two SSDs on one dock): two targets alone, then together — both
 * writing and both reading ("same"), and the first writing while the second reads ("opposite")
 * — to show whether they share a bottleneck. Its engine part is
 * app/core/bench/plan-kind-paired.ts. Pure: imports nothing.
 */
import { formatBytes, formatRoundBytes } from './format.js';
import type { PlanFields, PlanKind } from './plan-kind.js';
import { toBlocks } from './run-sizes.js';

export type PairedDirection = 'same' | 'opposite' | 'both';
/** What a and b do together: both write, both read, or a writes while b reads. */
export type Pairing = 'write+write' | 'read+read' | 'write+read';

export interface PairedPlanFields extends PlanFields {
  kind: 'paired';
  fileBytes: number;
  /** Files each target moves in each stage. */
  filesPerStage: number;
  direction: PairedDirection;
}

/** The pairings a direction asks for. */
export function pairingsFor(direction: PairedDirection): Pairing[] {
  const same: Pairing[] = ['write+write', 'read+read'];
  if (direction === 'same') return same;
  if (direction === 'opposite') return ['write+read'];
  return [...same, 'write+read'];
}

/** Bytes both targets move (for progress), not counting the fill that keeps the load even. */
function pairedProgressBytes(plan: PairedPlanFields): number {
  const perStage = 2 * plan.filesPerStage * plan.fileBytes;
  const pairings = pairingsFor(plan.direction);
  const readsAlone = pairings.some((p) => p.includes('read')) ? perStage : 0;
  return perStage + readsAlone + pairings.length * perStage;
}

/** The first folder's share: stages of files it writes and reads, alone and together. */
function firstFolderShare(plan: PairedPlanFields) {
  return {
    stageBytes: plan.filesPerStage * plan.fileBytes,
    writes: plan.direction === 'both' ? 3 : 2,
    reads: plan.direction === 'opposite' ? 0 : 2,
  };
}

export const pairedPlanKind: PlanKind<PairedPlanFields> = {
  kind: 'paired',
  options: {
    total: null,
    verify: 'never',
    secondFolder: true,
    quickScale: true,
    seeded: false,
    switches: [],
  },
  builtins: [
    {
      plan: {
        schema: 'plumb.plan/1',
        name: 'paired',
        description:
          'Two folders: 10 files of 400 MB each alone, then both together (both writing, both reading, one writing while the other reads), to show whether they slow each other.',
        kind: 'paired',
        fileBytes: 400e6,
        filesPerStage: 10,
        direction: 'both',
      },
      title: 'Two disks at once',
      reveals:
        'Whether two disks slow each other down when used together, as on one dock or hub: each alone, then both at once in the same and opposite directions.',
      usage: [
        'DIR and DIR2 each alone, then together: both writing, both reading (same),',
        'DIR writing while DIR2 reads (opposite); says whether they slow each other',
      ],
    },
  ],
  directions: () => ['write', 'read'],
  describe: (plan) =>
    `Two folders: ${plan.filesPerStage} files of ${formatBytes(plan.fileBytes)} each alone, then both together.`,
  summary: (plan) =>
    `${plan.filesPerStage} files of ${formatRoundBytes(plan.fileBytes)} per folder, each folder alone, then both together.`,
  scaleSizes<T extends PairedPlanFields>(plan: T, factor: number): T {
    return { ...plan, fileBytes: toBlocks(plan.fileBytes * factor) };
  },
  // The first folder's share: its files alone, then together in each pairing it writes or reads in.
  size(plan, room) {
    const { stageBytes, writes, reads } = firstFolderShare(plan);
    return {
      plan,
      writeBytes: writes * stageBytes,
      readBytes: reads * stageBytes,
      // Each target holds its files written alone (read back later) and those written together.
      spaceBytes: 2 * stageBytes,
      fits: 2 * stageBytes <= room.allowanceBytes,
      files: null,
      progress: { bytes: pairedProgressBytes(plan), files: null },
      notes: [],
      recorded: {},
    };
  },
  time(run, rates) {
    const { filesPerStage } = run.plan;
    const { writes, reads } = firstFolderShare(run.plan);
    return {
      seconds:
        rates.runSeconds +
        2 * filesPerStage * (writes * rates.writeFileSeconds + reads * rates.readFileSeconds) +
        (2 * run.writeBytes) / rates.writeRate +
        (2 * run.readBytes) / rates.readRate,
      recoveryChecks: null,
    };
  },
};
