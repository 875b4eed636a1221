/** A benchmark result as a report: the facts of the run, then the verdict in its print mode. */
import type { ResultDocument } from '../../../app/contract/bench.js';
import type { ReportModel } from '../../../app/contract/report.js';
import { formatBytes, formatDateTime, formatDuration } from '../../../app/common/format.js';
import { planTitle } from '../screens/bench/plan-catalogue.js';
import { Verdict, verdictMeta } from '../screens/bench/Verdict.js';
import { ReportCover, type Fact } from './ReportCover.js';

const notReported = 'not reported';

/** What the plan did, in its own words when it has them. */
export function planText(plan: ResultDocument['plan']): string {
  const description = typeof plan.description === 'string' ? plan.description : '';
  return description ? `${planTitle(plan.name)}: ${description}` : planTitle(plan.name);
}

export function whenText(document: ResultDocument): string {
  const started = formatDateTime(document.startedAt);
  if (!document.finishedAt) return started;
  const seconds = (Date.parse(document.finishedAt) - Date.parse(document.startedAt)) / 1000;
  return Number.isFinite(seconds) ? `${started}, took ${formatDuration(seconds)}` : started;
}

export function runFacts(document: ResultDocument): Fact[] {
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
    ['Plan', planText(document.plan)],
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
