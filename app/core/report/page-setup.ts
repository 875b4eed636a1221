/**
 * Paper, margins and the running header and footer of a printed report, shared by both printers
 * (playwright-core's page.pdf and Electron's printToPDF) so a report looks the same from either.
 */
import type { Paper, ReportModel } from '../../contract/report.js';

const paperSizesMm: Record<Paper, { width: number; height: number }> = {
  a4: { width: 210, height: 297 },
  letter: { width: 215.9, height: 279.4 },
};

/** Room for the header and footer at the top and bottom. */
export const marginsMm = { top: 17, bottom: 15, left: 14, right: 14 };

const cssPixelsPerMm = 96 / 25.4;

/**
 * The width the page is laid out at, in CSS pixels: the printable width, so what the page measures
 * on screen (chart canvases) is what lands on paper, unscaled.
 */
export function contentWidthPx(paper: Paper): number {
  return Math.floor(
    (paperSizesMm[paper].width - marginsMm.left - marginsMm.right) * cssPixelsPerMm,
  );
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

// Header and footer templates are separate little documents: every style must be inline (and
// use single quotes, inside the double-quoted style attribute).
const outer =
  `width:100%;box-sizing:border-box;padding:0 ${marginsMm.right}mm 0 ${marginsMm.left}mm;` +
  "font-family:-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;" +
  'font-size:8px;color:#6e6e73;-webkit-print-color-adjust:exact;';
const band = (side: 'top' | 'bottom') =>
  'display:flex;justify-content:space-between;gap:8mm;' +
  (side === 'top'
    ? 'padding-bottom:1.5mm;border-bottom:0.5px solid #c7c7cc;'
    : 'padding-top:1.5mm;border-top:0.5px solid #c7c7cc;');

const kindLabels: Record<ReportModel['kind'], string> = {
  result: 'Benchmark report',
  comparison: 'Benchmark comparison',
  planner: 'Storage plan',
};

export function headerTemplate(model: Pick<ReportModel, 'kind' | 'subject'>): string {
  return (
    `<div style="${outer}"><div style="${band('top')}">` +
    `<span style="font-weight:600;color:#1d1d1f;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;">${escapeHtml(model.subject)}</span>` +
    `<span style="white-space:nowrap;">Plumb · ${kindLabels[model.kind]}</span></div></div>`
  );
}

export function footerTemplate(model: Pick<ReportModel, 'generatedAt' | 'appVersion'>): string {
  const day = model.generatedAt.slice(0, 10);
  return (
    `<div style="${outer}"><div style="${band('bottom')}">` +
    `<span>Made with Plumb ${escapeHtml(model.appVersion)} on ${escapeHtml(day)}</span>` +
    '<span style="white-space:nowrap;">Page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div></div>'
  );
}

/** The report page's address inside the renderer build, asking for the model named `token`. */
export function reportPagePath(token: string): string {
  return `/report.html?model=${encodeURIComponent(token)}`;
}

/** Where the report page fetches its model from (relative to the renderer root). */
export function reportModelPath(token: string): string {
  return `/report-models/${encodeURIComponent(token)}.json`;
}

/** The token of a model URL path, or null when `urlPath` is not one. */
export function modelTokenOf(urlPath: string): string | null {
  const match = /^\/report-models\/([A-Za-z0-9_-]{8,64})\.json$/.exec(urlPath);
  return match ? match[1]! : null;
}
