/**
 * A capacity check's answer, first and in words: whether the drive holds what it claims ("Capacity
 * checked: 62.1 GB written and read back intact" / "Capacity check failed: … this drive stores
 * less than it reports"). Nothing for other runs.
 */
import type { ResultDocument } from '../../../../app/contract/bench-result.js';
import { capacityVerdict } from '../../../../app/common/capacity-check.js';

export function CapacityVerdict({ document }: { document: ResultDocument }) {
  const plan = document.plan as { kind?: unknown; allowanceBytes?: unknown };
  if (plan.kind !== 'capacity' || !document.verify) return null;
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
