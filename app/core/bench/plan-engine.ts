/**
 * A plan kind's engine part: how a run of the kind is checked and made. Each kind fills one
 * (plan-kind-*.ts) registered in plan-kinds.ts; its pure part (sizes, fit, words, options) is
 * app/common/plan-kind-*.ts. Kinds that run on one folder build theirs with `singleTargetEngine`.
 */
import type { Plan } from '../../contract/plan.js';
import type { BenchIO } from './bench-io.js';
import type { PreparedRun, RunOptions } from './run-options.js';

export interface PlanEngine<P extends Plan> {
  /**
   * Checks the plan can run (folders, volumes, the free-space guard), throwing the refusal
   * before any event, and returns it ready to run.
   */
  prepare(options: RunOptions, plan: P, io: BenchIO): Promise<PreparedRun>;
}
