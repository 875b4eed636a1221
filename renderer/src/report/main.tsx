/**
 * The report page (report.html): the printing side (playwright-core or Electron's hidden window)
 * opens it with `?model=TOKEN` and answers `report-models/TOKEN.json`; the page draws the report
 * and sets `data-ready` on <body> once every chart is on its canvas, or `data-report-error`.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../styles.css';
import '../ui/ui.css';
import '../ui/planner/planner.css';
import { loadReportModel } from './load-model.js';
import { ReportDocument } from './ReportDocument.js';
import './report.css';

function fail(message: string): void {
  document.body.dataset.reportError = message;
  const root = document.getElementById('root');
  if (root) root.textContent = `This report could not be drawn: ${message}`;
}

const root = document.getElementById('root');
if (!root) throw new Error('report.html has no #root element');

loadReportModel(window.location).then(
  (model) => {
    document.title = model.title;
    createRoot(root).render(
      <StrictMode>
        <ReportDocument model={model} onDrawn={() => (document.body.dataset.ready = 'true')} />
      </StrictMode>,
    );
  },
  (error: Error) => fail(error.message),
);
window.addEventListener('error', (event) => fail(event.message));
