/**
 * One print layout for every report: a cover block, then the app's own components (verdict,
 * comparison, planner) in their print mode. `onDrawn` fires once fonts are in and every chart
 * has drawn on its canvas (charts draw in their effects, which run before this one's).
 */
import { useEffect } from 'react';
import type { ReportModel } from '../../../app/contract/report.js';
import { ComparisonReport } from './ComparisonReport.js';
import { PlannerReport } from './PlannerReport.js';
import { ResultReport } from './ResultReport.js';

function nextFrame(): Promise<void> {
  return new Promise((resolve) => window.requestAnimationFrame(() => resolve()));
}

export function ReportDocument({ model, onDrawn }: { model: ReportModel; onDrawn: () => void }) {
  useEffect(() => {
    let live = true;
    void (async () => {
      await document.fonts.ready;
      // A resize observed after the first paint redraws a chart: let that happen too.
      await nextFrame();
      await nextFrame();
      if (live) onDrawn();
    })();
    return () => {
      live = false;
    };
  }, [onDrawn]);

  return (
    <main className={`report report-${model.kind} report-paper-${model.paper} bench-screen`}>
      {model.kind === 'result' ? <ResultReport model={model} /> : null}
      {model.kind === 'comparison' ? <ComparisonReport model={model} /> : null}
      {model.kind === 'planner' ? <PlannerReport model={model} /> : null}
    </main>
  );
}
