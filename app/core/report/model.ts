/**
 * The report model: what the report page draws, prepared once by whoever prints (the CLI, the web
 * server, the desktop app), from result documents or a planner scenario.
 */
import type { ResultDocument } from '../../contract/bench-result.js';
import type { Evaluation, Scenario } from '../../contract/planner.js';
import type { Paper, ReportModel } from '../../contract/report.js';
import { withHeadline } from '../analysis/headline-rate.js';

interface Common {
  paper: Paper;
  appVersion: string;
  now?: Date;
}

/** The device a result measured, as a reader would name it: the user's label, else the volume. */
export function deviceName(document: ResultDocument): string {
  const volume = document.environment.volume;
  const facts = [volume.fsType, volume.bus?.toUpperCase()].filter(Boolean).join(', ');
  const where = facts ? `${volume.path} (${facts})` : volume.path;
  return document.name ? `${document.name} — ${where}` : where;
}

function base(common: Common) {
  return {
    paper: common.paper,
    appVersion: common.appVersion,
    generatedAt: (common.now ?? new Date()).toISOString(),
  };
}

export function resultReport(document: ResultDocument, common: Common): ReportModel {
  const subject = deviceName(document);
  return {
    kind: 'result',
    title: `Storage benchmark: ${subject}`,
    subject,
    ...base(common),
    result: withHeadline(document),
  };
}

export function comparisonReport(documents: ResultDocument[], common: Common): ReportModel {
  const names = [...new Set(documents.map(deviceName))];
  const subject =
    names.length <= 3
      ? names.join(' vs ')
      : `${names.slice(0, 2).join(' vs ')} and ${names.length - 2} more`;
  return {
    kind: 'comparison',
    title: `Comparison of ${documents.length} benchmark results`,
    subject,
    ...base(common),
    results: documents.map(withHeadline),
  };
}

export function plannerReport(
  scenario: Scenario,
  evaluation: Evaluation,
  common: Common,
): ReportModel {
  return {
    kind: 'planner',
    title: `Storage plan: ${scenario.name}`,
    subject: scenario.name,
    ...base(common),
    scenario,
    evaluation,
  };
}

/** A file name for the PDF: kind, subject and date, in characters every file system accepts. */
export function reportFileName(model: ReportModel, extension = 'pdf'): string {
  const stem =
    model.kind === 'result'
      ? `plumb-${model.result.id}`
      : model.kind === 'comparison'
        ? `plumb-comparison-${model.generatedAt.slice(0, 10)}`
        : `plumb-plan-${model.subject}`;
  const safe = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents, split off by NFKD: "ü" → "u"
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 100);
  return `${safe || 'plumb-report'}.${extension}`;
}
