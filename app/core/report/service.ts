/**
 * The report operations of the contract: a report request (stored results by id, or a scenario)
 * becomes a model; `report.pdf` prints it here with a system browser. Saving to a chosen place
 * is the desktop's own (`report.savePdf`), because only it has a save dialog.
 */
import { PlumbError } from '../../contract/errors.js';
import type { Paper, ReportModel, ReportRequest } from '../../contract/report.js';
import type { ResultsStore } from '../bench/results-store.js';
import type { AppContext } from '../context.js';
import type { Handlers } from '../dispatch.js';
import type { ResultDocument } from '../../contract/bench-result.js';
import type { Scenario } from '../../contract/planner.js';
import {
  evaluateWithSavedResults,
  measuredProfiles,
  type MeasuredProfiles,
} from '../planner/measured.js';
import { appVersion } from '../version.js';
import { comparisonReport, plannerReport, reportFileName, resultReport } from './model.js';
import { printReportPdf, type PrintOptions } from './print-pdf.js';

export interface ReportSources {
  store: ResultsStore;
  measured: () => Promise<MeasuredProfiles>;
}

/** A report's sources in the app context: its saved results, read as results and as devices. */
export function reportSources(context: Pick<AppContext, 'results'>): ReportSources {
  return { store: context.results, measured: () => measuredProfiles(context.results) };
}

/** The model a request asks for, from the stored results or the planner. */
export async function prepareReport(
  request: ReportRequest,
  paper: Paper,
  sources: ReportSources,
): Promise<ReportModel> {
  switch (request.kind) {
    case 'result':
      return reportModel(
        { kind: 'result', document: await sources.store.get(request.id) },
        paper,
        sources.measured,
      );
    case 'comparison': {
      const documents = await Promise.all(request.ids.map((id) => sources.store.get(id)));
      return reportModel({ kind: 'comparison', documents }, paper, sources.measured);
    }
    case 'planner':
      return reportModel(request, paper, sources.measured);
  }
}

/** What a report shows, once its results are read: the one model the app and `plumb report` print. */
export type ReportContent =
  | { kind: 'result'; document: ResultDocument }
  | { kind: 'comparison'; documents: ResultDocument[] }
  | { kind: 'planner'; scenario: Scenario };

export async function reportModel(
  content: ReportContent,
  paper: Paper,
  measured: () => Promise<MeasuredProfiles>,
): Promise<ReportModel> {
  const common = { paper, appVersion: appVersion() };
  switch (content.kind) {
    case 'result':
      return resultReport(content.document, common);
    case 'comparison':
      return comparisonReport(content.documents, common);
    case 'planner': {
      const evaluation = await evaluateWithSavedResults(content.scenario, measured);
      return plannerReport(content.scenario, evaluation, common);
    }
  }
}

export function reportHandlers(
  sources: () => ReportSources,
  print: (model: ReportModel, options?: PrintOptions) => Promise<Buffer> = printReportPdf,
): Pick<Handlers, 'report.pdf' | 'report.savePdf'> {
  return {
    'report.pdf': async ({ request, paper }) => {
      const model = await prepareReport(request, paper, sources());
      const pdf = await print(model);
      return { fileName: reportFileName(model), pdfBase64: pdf.toString('base64') };
    },
    'report.savePdf': async () => {
      throw new PlumbError(
        'ENOTSUP',
        'Saving with a dialog is in the desktop app; in a browser, the PDF downloads instead.',
      );
    },
  };
}
