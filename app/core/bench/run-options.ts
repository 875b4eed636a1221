/** What a benchmark run is asked to do, and a run ready to start: shared by the plain and paired runners. */
import type { BenchEvent } from '../../contract/bench-events.js';
import type { ResultDocument } from '../../contract/bench-result.js';
import type { PairedDirection, Plan } from '../../contract/plan.js';
import type { SizedRun } from '../../common/plan-kind.js';
import type { InterfaceCeiling } from '../analysis/interface-ceiling.js';
import type { ResultsStore } from './results-store.js';
import type { ReservePolicy } from '../../common/reserve.js';

export interface RunOptions {
  target: string;
  plan: Plan;
  /** The scale the plan was shrunk by (recorded only; apply it with scalePlan first). */
  scale?: number;
  /** Caps a sustained run. */
  totalBytes?: number;
  buffered?: boolean;
  keepFiles?: boolean;
  /** Free space to leave: bytes (overrides the policy's minimum) or a policy. */
  reserve?: ReservePolicy;
  /** The interface to check rates against; default: from the bus the OS reports. */
  ceiling?: InterfaceCeiling;
  seed?: number;
  runId?: string;
  appVersion: string;
  signal: AbortSignal;
  emit?: (event: BenchEvent) => void;
  /** Where the result is saved and earlier runs are looked up; not saved when absent. */
  store?: ResultsStore;
  /** The second folder of a paired plan. */
  pairedWith?: string;
  /** Overrides a paired plan's direction. */
  direction?: PairedDirection;
  /** Stamp every block written and read every file back to check it (kinds that offer it). */
  verify?: boolean;
}

/**
 * A run whose checks passed (folder, volume, free-space guard) and that has not written a byte
 * yet: `run()` does the work, reports through `emit` and ends with `finished`, `failed` or
 * `cancelled`. Refusals are thrown by the prepare step, before any event.
 */
export interface PreparedRun {
  runId: string;
  /** The folder tested (resolved). */
  target: string;
  /** The run as sized before it starts (the estimate's figures); null when reading a folder. */
  planned: SizedRun<Plan> | null;
  run(): Promise<ResultDocument>;
}
