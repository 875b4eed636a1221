/**
 * A capacity check's answer, first and in words: whether the drive holds what it claims ("Capacity
 * checked: 62.1 GB written and read back intact" / "Capacity check failed: … this drive stores
 * less than it reports"). Nothing for other runs.
 */
import type { ResultDocument } from '../../../../app/contract/bench-result.js';
import { capacityVerdict } from '../../../../app/common/capacity-check.js';
import { planKindNamed } from '../../../../app/common/plan-kinds.js';

export function CapacityVerdict({ document }: { document: ResultDocument }) {
  const plan = document.plan as { kind?: unknown; allowanceBytes?: unknown };
  // A kind that always checks every block (the capacity check) has that check as its answer.
  if (planKindNamed(plan.kind)?.options.verify !== 'always' || !document.verify) return null;
  const allowance = typeof plan.allowanceBytes === 'number' ? plan.allowanceBytes : undefined;
  const passed = document.verify.verdict === 'passed';
  return (
    <div
      className={`banner capacity-verdict ${passed ? 'banner-info' : 'banner-error'}`}
      role={passed ? 'status' : 'alert'}
      data-testid="capacity-verdict"
    >
      {capacityVerdict(document.verify, allowance)}
    </div>
  );
}
