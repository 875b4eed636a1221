/**
 * Reports people hand on: one print layout for a benchmark result, a comparison of results and a
 * planner scenario, printed to PDF by Chromium (playwright-core, or Electron's printToPDF).
 * The printing side prepares a `ReportModel` and gives it to the report page (renderer/report.html).
 */
import { z } from 'zod';
import { ResultDocument } from './bench-result.js';
import { Evaluation, Scenario } from './planner.js';

export const Paper = z.enum(['a4', 'letter']);
export type Paper = z.infer<typeof Paper>;

const resultId = z.string().trim().min(1).max(200);

/** What to report on: stored results by id, or a planner scenario. */
export const ReportRequest = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('result'), id: resultId }),
  z.object({
    kind: z.literal('comparison'),
    ids: z.array(resultId).min(2, 'compare at least two results').max(8),
  }),
  z.object({ kind: z.literal('planner'), scenario: Scenario }),
]);
export type ReportRequest = z.output<typeof ReportRequest>;
export type ReportRequestInput = z.input<typeof ReportRequest>;

const modelBase = {
  /** The document's title, and the name in every page header. */
  title: z.string(),
  /** What the report is about, for the page header: the device (or scenario) name. */
  subject: z.string(),
  paper: Paper,
  generatedAt: z.string(),
  appVersion: z.string(),
};

/** Everything the report page draws, prepared by the printing side. */
export const ReportModel = z.discriminatedUnion('kind', [
  z.object({ ...modelBase, kind: z.literal('result'), result: ResultDocument }),
  z.object({
    ...modelBase,
    kind: z.literal('comparison'),
    results: z.array(ResultDocument).min(2),
  }),
  z.object({
    ...modelBase,
    kind: z.literal('planner'),
    scenario: Scenario,
    evaluation: Evaluation,
  }),
]);
export type ReportModel = z.output<typeof ReportModel>;

const printInput = z.object({ request: ReportRequest, paper: Paper.default('a4') });

export const reportOperations = {
  /**
   * The report printed to PDF on Plumb's side with a system Chrome or Chromium; the bytes come
   * back base64-encoded for the page to offer as a download.
   */
  'report.pdf': {
    input: printInput,
    output: z.object({ fileName: z.string(), pdfBase64: z.string() }),
  },
  /** Desktop only: prints the report and saves it where the user chooses; null when cancelled. */
  'report.savePdf': {
    input: printInput,
    output: z.object({ path: z.string().nullable() }),
  },
} as const;
