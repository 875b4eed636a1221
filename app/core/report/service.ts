/**
 * The report operations of the contract: a report request (stored results by id, or a scenario)
 * becomes a model; `report.pdf` prints it here with a system browser. Saving to a chosen place
 * is the desktop's own (`report.savePdf`), because only it has a save dialog.
 */
import { PlumbError } from '../../contract/errors.js';
import type { Paper, ReportModel, ReportRequest } from '../../contract/report.js';
import { resultsDir } from '../bench/results-dir.js';
import { ResultsStore } from '../bench/results-store.js';
import type { Handlers } from '../dispatch.js';
import { builtInCatalogue } from '../planner/catalogue.js';
import { evaluateScenario } from '../planner/evaluate.js';
import { measuredProfiles } from '../planner/measured.js';
import { appVersion } from '../version.js';
import { comparisonReport, plannerReport, reportFileName, resultReport } from './model.js';
import { printReportPdf, type PrintOptions } from './print-pdf.js';

export interface ReportSources {
  store: ResultsStore;
  measured: typeof measuredProfiles;
}

export function defaultReportSources(): ReportSources {
  return { store: new ResultsStore(resultsDir()), measured: measuredProfiles };
}

/** The model a request asks for, from the stored results or the planner. */
export async function prepareReport(
  request: ReportRequest,
  paper: Paper,
  sources: ReportSources = defaultReportSources(),
): Promise<ReportModel> {
  const common = { paper, appVersion: appVersion() };
  switch (request.kind) {
    case 'result':
      return resultReport(await sources.store.get(request.id), common);
    case 'comparison':
      return comparisonReport(
        await Promise.all(request.ids.map((id) => sources.store.get(id))),
        common,
      );
    case 'planner': {
      const { devices } = await sources.measured();
      const evaluation = evaluateScenario(request.scenario, builtInCatalogue(), devices);
      return plannerReport(request.scenario, evaluation, common);
    }
  }
}

export function reportHandlers(
  sources: () => ReportSources = defaultReportSources,
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
