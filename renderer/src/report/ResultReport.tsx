/** A benchmark result as a report: the facts of the run, then the verdict in its print mode. */
import type { ResultDocument } from '../../../app/contract/bench-result.js';
import type { ReportModel } from '../../../app/contract/report.js';
import { formatBytes, formatDateTime, formatDuration } from '../../../app/common/format.js';
import { headlineWords } from '../../../app/common/headline-rate.js';
import { runPlanDescription } from '../../../app/common/plan-description.js';
import { quickRunCaveat, quickRunLabel, runScale } from '../../../app/common/quick-run.js';
import { planTitle } from '../ui/plan-catalogue.js';
import { Verdict, verdictMeta } from '../ui/result/Verdict.js';
import { ReportCover, type Fact } from './ReportCover.js';

const notReported = 'not reported';

/** What the plan did, with the sizes it used; a quick run says so first. */
export function planText(document: ResultDocument): string {
  const title = planTitle(document.plan.name);
  const description = runPlanDescription(document.plan, runScale(document));
  const quick = quickRunLabel(document);
  return [quick, description ? `${title}: ${description}` : title].filter(Boolean).join(' · ');
}

export function whenText(document: ResultDocument): string {
  const started = formatDateTime(document.startedAt);
  if (!document.finishedAt) return started;
  const seconds = (Date.parse(document.finishedAt) - Date.parse(document.startedAt)) / 1000;
  return Number.isFinite(seconds) ? `${started}, took ${formatDuration(seconds)}` : started;
}

function runFacts(document: ResultDocument): Fact[] {
  const { environment } = document;
  const volume = environment.volume;
  return [
    ['Device and volume', volume.path],
    ['File system', volume.fsType ?? notReported],
    ['Bus', volume.bus ? volume.bus.toUpperCase() : notReported],
    [
      'Capacity',
      volume.totalBytes > 0
        ? `${formatBytes(volume.totalBytes)}, ${formatBytes(volume.freeBytes)} free at the start`
        : notReported,
    ],
    ['Operating system', environment.os],
    ['Date', whenText(document)],
    ['Plan', planText(document)],
    ...(quickRunLabel(document)
      ? [[quickRunLabel(document)!, quickRunCaveat(document)!] as const]
      : []),
    ['Headline', headlineWords(document) || 'none: no file of 2 MB or more'],
    [
      'Cache',
      environment.cacheDefeat ??
        (environment.cacheMode === 'direct' ? 'direct I/O (uncached)' : 'buffered I/O'),
    ],
    ['Made with', `Plumb ${document.app.version} · result ${document.id}`],
  ];
}

export function ResultReport({ model }: { model: Extract<ReportModel, { kind: 'result' }> }) {
  const document = model.result;
  return (
    <>
      <ReportCover
        kind="Storage benchmark report"
        title={model.subject}
        lines={verdictMeta(document)}
        facts={runFacts(document)}
      />
      <Verdict document={document} print />
    </>
  );
}
