/**
 * A finished run read as a verdict: what the disk does in plain words and big figures first, then
 * findings and charts; every statistic and every file one click away, under "Details".
 */
import { useMemo, type ReactNode } from 'react';
import type { Phase, ResultDocument } from '../../../../app/contract/bench-result.js';
import {
  capitalise,
  formatBytes,
  formatDateTime,
  formatDuration,
  formatRate,
} from '../../../../app/common/format.js';
import { headline } from '../../../../app/common/headline-rate.js';
import { useChartTheme } from '../charts/chart-theme.js';
import { RateChart, type RateSeries } from '../charts/RateChart.js';
import { resultTitle } from './compare.js';
import { FileTable } from '../FileTable.js';
import { FindingsList } from './FindingsList.js';
import { PairedVerdict, TaskVerdict } from './PairedTaskVerdict.js';
import { VerifyVerdict } from './VerifyVerdict.js';
import { planTitle } from '../plan-catalogue.js';
import { presetGrid } from './presets-grid.js';
import { PresetsGridView } from './PresetsGridView.js';
import {
  ceilingOf,
  cliffMarks,
  cumulativeChartWords,
  cumulativeCurve,
  queueRunSeries,
  rateBySize,
  type Point,
} from './series.js';
import { queueHeadlines, type HeadlineTile } from './summary-table.js';
import { SummaryTable } from './SummaryTable.js';
import { quietVerdict } from './quiet-verdict.js';
import { plainVerdict } from './verdict-sections.js';

const phases: Phase[] = ['write', 'read'];

function runSeconds(document: ResultDocument): number | null {
  if (!document.finishedAt) return null;
  const seconds = (Date.parse(document.finishedAt) - Date.parse(document.startedAt)) / 1000;
  return Number.isFinite(seconds) ? seconds : null;
}

export function verdictMeta(document: ResultDocument): string[] {
  const volume = document.environment.volume;
  const seconds = runSeconds(document);
  return [
    planTitle(document.plan.name),
    volume.path,
    [volume.fsType, volume.bus?.toUpperCase()].filter(Boolean).join(' · '),
    document.environment.cacheMode === 'direct' ? 'uncached' : 'buffered',
    formatDateTime(document.startedAt),
    seconds === null ? '' : `took ${formatDuration(seconds)}`,
  ].filter((part) => part !== '');
}

/** Tiles of a files run: the headline write and read, how much moved; none for a direction without one. */
function fileHeadlines(document: ResultDocument): HeadlineTile[] {
  const tiles: HeadlineTile[] = (['write', 'read'] as const).flatMap((phase) => {
    const { rate, basis } = headline(document, phase);
    return rate === null
      ? []
      : [{ label: capitalise(phase), value: formatRate(rate), note: basis }];
  });
  tiles.push({
    label: 'Transferred',
    value: formatBytes(document.files.reduce((sum, f) => sum + f.bytes, 0)),
    note: `${document.files.length} files`,
  });
  return tiles;
}

export function Verdict({
  document,
  actions,
  print = false,
}: {
  document: ResultDocument;
  actions?: ReactNode;
  /** For a printed report: charts and the file table in their print mode. */
  print?: boolean;
}) {
  const theme = useChartTheme(print ? 'light' : undefined);
  const ceiling = ceilingOf(document);
  const cliffs = cliffMarks(document.findings);
  const hasFiles = document.files.length > 0;

  const series = useMemo(() => {
    const build = (axis: 'cumulative' | 'size'): RateSeries[] =>
      phases
        .map((phase) => ({
          label: capitalise(phase),
          color: phase === 'write' ? theme.write : theme.read,
          dashed: phase === 'read',
          ...(axis === 'cumulative'
            ? cumulativeCurve(document, phase)
            : { points: rateBySize(document.files, phase) }),
        }))
        .filter((s) => s.points.length > 0);
    return { cumulative: build('cumulative'), size: build('size') };
  }, [document, theme.write, theme.read]);

  const queueSeries = useMemo<RateSeries[]>(() => {
    if (!document.runs?.length) return [];
    let offset = 0;
    const points: Point[] = [];
    for (const run of document.runs) {
      const runPoints = queueRunSeries(run);
      for (const p of runPoints) points.push({ x: offset + p.x, y: p.y });
      offset += runPoints.at(-1)?.x ?? 0;
    }
    return [{ label: 'Queue-depth runs', color: theme.write, points }];
  }, [document.runs, theme.write]);

  const title = resultTitle(document);
  // On paper in full (a printed table repeats its header only outside a disclosure).
  const methodSections = (
    <>
      <section className="verdict-section" aria-labelledby={`${document.id}-summary`}>
        <h3 id={`${document.id}-summary`} className="section-title">
          Summary by method
        </h3>
        <SummaryTable document={document} />
      </section>
      <section className="verdict-section" aria-labelledby={`${document.id}-files`}>
        <h3 id={`${document.id}-files`} className="section-title">
          Every file
        </h3>
        <FileTable files={document.files} print={print} />
      </section>
    </>
  );
  return (
    <article className="verdict" aria-label={`Verdict: ${title}`}>
      <header className="verdict-header">
        <div className="verdict-heading">
          <h2 className="verdict-title">{title}</h2>
          <p className="verdict-meta">
            {verdictMeta(document).map((part) => (
              <span key={part}>{part}</span>
            ))}
          </p>
        </div>
        {actions ? <div className="verdict-actions">{actions}</div> : null}
      </header>

      <p className="verdict-plain" data-testid="verdict-plain">
        {plainVerdict(document)}
      </p>

      <div className="headline-figures">
        {(hasFiles ? fileHeadlines(document) : queueHeadlines(document.runs ?? [])).map((tile) => (
          <div className="headline" key={tile.label}>
            <span className="headline-label">{tile.label}</span>
            <span
              className="headline-value"
              data-testid={`headline-${tile.label.toLowerCase().replace(/\W+/g, '-')}`}
            >
              {tile.value}
            </span>
            <span className="headline-note">{tile.note}</span>
          </div>
        ))}
      </div>

      {document.paired ? <PairedVerdict section={document.paired} id={document.id} /> : null}
      {document.task ? <TaskVerdict task={document.task} id={document.id} /> : null}
      {document.verify ? <VerifyVerdict section={document.verify} id={document.id} /> : null}

      <section className="verdict-section" aria-labelledby={`${document.id}-findings`}>
        <h3 id={`${document.id}-findings`} className="section-title">
          Findings
        </h3>
        <FindingsList
          findings={document.findings}
          emptyText={document.findings.length === 0 ? quietVerdict(document) : undefined}
          print={print}
        />
        {document.notices?.length ? (
          <ul className="notices" aria-label="Notes from the run">
            {document.notices.map((notice) => (
              <li key={notice}>{notice}</li>
            ))}
          </ul>
        ) : null}
      </section>

      {hasFiles ? (
        <div className="chart-grid">
          <RateChart
            {...cumulativeChartWords(phases.filter((p) => document.summary[p].count > 0))}
            axis="cumulative"
            series={series.cumulative}
            ceiling={ceiling}
            cliffs={cliffs}
            print={print}
          />
          <RateChart
            title="Rate against file size"
            caption="Small files pay fixed costs; the curve levels off at the drive's speed."
            axis="size"
            series={series.size}
            waiting="No file of this run has a rate to draw."
            ceiling={ceiling}
            print={print}
          />
        </div>
      ) : null}

      {document.runs?.length ? (
        <div className="chart-grid">
          <section className="card grid-card" aria-label="Queue-depth grid">
            <h3 className="chart-title">Queue-depth grid</h3>
            <PresetsGridView rows={presetGrid(document.runs, [], document.runs)} print={print} />
          </section>
          <RateChart
            title="Bytes per second over time"
            caption="Each queue-depth run in turn, end to end."
            axis="time"
            series={queueSeries}
            print={print}
          />
        </div>
      ) : null}

      {hasFiles && print ? methodSections : null}
      {hasFiles && !print ? (
        <details className="verdict-details">
          <summary className="verdict-details-summary">
            Details: every statistic and every file
          </summary>
          {methodSections}
        </details>
      ) : null}
    </article>
  );
}
