/**
 * Starting a benchmark run: the one use case behind `plumb bench`, `plumb read` and the contract's
 * `bench.start`. Each front door parses its own arguments into a `BenchRequest`; the run is
 * assembled here, once, so both doors run the same checks with the same defaults.
 */
import type { BenchEvent } from '../../contract/bench-events.js';
import type { PairedDirection, Plan, PlanInput } from '../../contract/plan.js';
import { PlumbError } from '../../contract/errors.js';
import { interfaceCeilingById, type InterfaceCeiling } from '../analysis/interface-ceiling.js';
import { appVersion } from '../version.js';
import type { BenchIO } from './bench-io.js';
import { resolvePlan, scalePlan } from './plans.js';
import type { ResultsStore } from './results-store.js';
import type { PreparedRun } from './run-options.js';
import { prepareBenchmark, prepareReadFolder } from './runner.js';
import { defaultReserve, type ReservePolicy } from '../../common/reserve.js';

/** What the user asked for, in the terms both front doors share. */
export interface BenchRequest {
  path: string;
  /** The plan as it runs (scaled: see `benchPlan`); null times reading the files under `path`. */
  plan: Plan | null;
  /** The scale the plan was shrunk by (recorded in the result). */
  scale: number;
  totalBytes?: number;
  buffered: boolean;
  keepFiles: boolean;
  /** Least free space to leave on the volume, bytes; default: the larger of 10 % and 1 GB. */
  reserveBytes?: number;
  /** The least `reserveBytes` may be (the UI's floor); none on the command line. */
  reserveFloor?: ReservePolicy;
  /** An interface ceiling id; default: from the bus the OS reports. */
  interface?: string;
  pairedWith?: string;
  direction?: PairedDirection;
  seed?: number;
  /** Read every file back after the run and check each block (--verify). */
  verify?: boolean;
}

/** Where a run reports to and saves into: the front door's part. */
export interface BenchHooks {
  runId?: string;
  signal: AbortSignal;
  emit: (event: BenchEvent) => void;
  store: ResultsStore;
  io: BenchIO;
}

/** The ceiling named by `id`, or EUSAGE listing the known ones. */
export function chosenCeiling(id: string | undefined): InterfaceCeiling | undefined {
  if (id === undefined) return undefined;
  const ceiling = interfaceCeilingById(id);
  if (!ceiling) {
    throw new PlumbError(
      'EUSAGE',
      `Unknown interface "${id}": use usb3-gen1, sata, usb3-gen2, usb3-gen2x2, tb3, usb4 or tb5.`,
    );
  }
  return ceiling;
}

/** A built-in plan name, a plan file or a plan, shrunk by `scale`; null for "read-folder". */
export async function benchPlan(plan: string | PlanInput, scale: number): Promise<Plan | null> {
  if (plan === 'read-folder') return null;
  return scalePlan(await resolvePlan(plan), scale);
}

/**
 * Checks the run can go ahead (folder, volume, free-space guard), throwing the refusal if not,
 * and returns it ready to start; nothing is written before `run()`.
 */
export function prepareBenchRun(request: BenchRequest, hooks: BenchHooks): Promise<PreparedRun> {
  const { io, ...reporting } = hooks;
  const common = {
    ...reporting,
    target: request.path,
    buffered: request.buffered,
    ceiling: chosenCeiling(request.interface),
    appVersion: appVersion(),
  };
  if (request.plan === null) return prepareReadFolder(common, io);
  return prepareBenchmark(
    {
      ...common,
      plan: request.plan,
      scale: request.scale,
      totalBytes: request.totalBytes,
      keepFiles: request.keepFiles,
      reserve:
        request.reserveBytes === undefined
          ? defaultReserve
          : {
              fraction: request.reserveFloor?.fraction ?? 0,
              minBytes: Math.max(request.reserveFloor?.minBytes ?? 0, request.reserveBytes),
            },
      seed: request.seed,
      pairedWith: request.pairedWith,
      direction: request.direction,
      verify: request.verify,
    },
    io,
  );
}
