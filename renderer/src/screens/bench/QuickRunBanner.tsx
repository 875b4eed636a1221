/**
 * Above a quick run's figures, wherever they are shown (the speed test's result, the result shown
 * when a run ends, the result page): that it is one, and what that means for its figures.
 */
import type { ResultDocument } from '../../../../app/contract/bench-result.js';
import { quickRunCaveat, quickRunLabel } from '../../../../app/common/quick-run.js';

/** Above a quick run's verdict: that it is one, and what that means for its figures. */
export function QuickRunBanner({ document }: { document: ResultDocument }) {
  const label = quickRunLabel(document);
  if (!label) return null;
  return (
    <div className="banner banner-warning" role="note" data-testid="quick-run">
      <strong>{label}.</strong> {quickRunCaveat(document)}
    </div>
  );
}
