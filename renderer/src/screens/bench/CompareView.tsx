/** Two or more results on the same charts, with a table of their headline figures. */
import { useEffect, useMemo, useState } from 'react';
import type { ResultDocument } from '../../../../app/contract/bench-result.js';
import type { PlumbClient } from '../../client.js';
import { ExportPdfButton } from '../../report/ExportPdfButton.js';
import { RateChart, type RateSeries } from './charts/RateChart.js';
import { comparisonRows, overlaySeries, type OverlaySeries } from './compare.js';
import { cumulativeChartWords } from './series.js';
import { formatRate } from '../../../../app/common/format.js';

function toRateSeries(series: OverlaySeries[]): RateSeries[] {
  return series.map((s) => ({
    label: s.label,
    color: s.color,
    dashed: s.phase === 'read',
    points: s.points,
    ...(s.line ? { line: true, samples: s.samples } : {}),
  }));
}

function relative(value: number | null): string {
  if (value === null) return '';
  if (Math.abs(value - 1) < 0.005) return 'baseline';
  return `${value > 1 ? '+' : '−'}${Math.abs((value - 1) * 100).toFixed(0)} %`;
}

/** The headline figures of each result, the first as the baseline; `onOpen` makes titles links. */
export function ComparisonTable({
  documents,
  onOpen,
}: {
  documents: ResultDocument[];
  onOpen?: (id: string) => void;
}) {
  return (
    <table className="data-table compare-table">
      <caption className="visually-hidden">Headline figures of the compared results</caption>
      <thead>
        <tr>
          <th scope="col">Run</th>
          <th scope="col">When</th>
          <th scope="col" className="numeric">
            Write
          </th>
          <th scope="col" className="numeric">
            Read
          </th>
          <th scope="col" className="numeric">
            Findings
          </th>
        </tr>
      </thead>
      <tbody>
        {comparisonRows(documents).map((row) => (
          <tr key={row.id}>
            <td>
              <div className="run-cell">
                <span className="swatch" style={{ background: row.color }} aria-hidden="true" />
                <div>
                  {onOpen ? (
                    <button type="button" className="link-button" onClick={() => onOpen(row.id)}>
                      {row.title}
                    </button>
                  ) : (
                    <span className="compare-run-title">{row.title}</span>
                  )}
                  <span className="row-sub">{row.volume}</span>
                  {row.quick ? (
                    <span className="chip chip-quick" data-testid="quick-run">
                      {row.quick}
                    </span>
                  ) : null}
                  {row.capacity ? (
                    <span
                      className={`chip chip-capacity-${row.capacity.verdict}`}
                      data-testid="capacity-check"
                    >
                      {row.capacity.label}
                    </span>
                  ) : null}
                </div>
              </div>
            </td>
            <td className="nowrap">{row.when}</td>
            <td className="numeric">
              {formatRate(row.write)} <span className="delta">{relative(row.writeRelative)}</span>
            </td>
            <td className="numeric">
              {formatRate(row.read)} <span className="delta">{relative(row.readRelative)}</span>
            </td>
            <td className="numeric">{row.findings}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Every result on the same two charts; `print` for a printed report. */
export function ComparisonCharts({
  documents,
  print = false,
}: {
  documents: ResultDocument[];
  print?: boolean;
}) {
  const charts = useMemo(
    () => ({
      cumulative: toRateSeries(overlaySeries(documents, 'cumulative')),
      size: toRateSeries(overlaySeries(documents, 'size')),
    }),
    [documents],
  );
  return (
    <div className="chart-grid chart-grid-stacked">
      <RateChart
        title={
          cumulativeChartWords(
            (['write', 'read'] as const).filter((p) => documents.some((d) => d.summary[p].count)),
          ).title
        }
        caption="Where each drive's rate stepped down, side by side."
        axis="cumulative"
        series={charts.cumulative}
        print={print}
      />
      <RateChart
        title="Rate against file size"
        caption="How each drive handles small and large files."
        axis="size"
        series={charts.size}
        print={print}
      />
    </div>
  );
}

export function CompareView({
  client,
  ids,
  onBack,
  onOpen,
}: {
  client: PlumbClient;
  ids: string[];
  onBack: () => void;
  onOpen: (id: string) => void;
}) {
  const [documents, setDocuments] = useState<ResultDocument[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = ids.join(',');

  useEffect(() => {
    let live = true;
    Promise.all(key.split(',').map((id) => client.call('results.get', { id }))).then(
      (loaded) => live && setDocuments(loaded),
      (cause: Error) => live && setError(cause.message),
    );
    return () => {
      live = false;
    };
  }, [client, key]);

  return (
    <div className="compare-view">
      <button type="button" className="back-link" onClick={onBack}>
        ← All results
      </button>
      <h2 className="verdict-title">Comparing {ids.length} results</h2>
      <div className="action-bar">
        <ExportPdfButton client={client} request={{ kind: 'comparison', ids }} />
      </div>
      <p className="lede">
        Circles are writes, diamonds reads; each result keeps its colour. The first result is the
        baseline. Write and read are each run's headline rate: the steady rate of its files of 2 MB
        or more, or their bytes over their seconds (each result page says which).
      </p>
      {error ? (
        <div className="banner banner-error" role="alert">
          {error}
        </div>
      ) : null}
      {documents ? (
        <>
          <ComparisonTable documents={documents} onOpen={onOpen} />
          <ComparisonCharts documents={documents} />
        </>
      ) : !error ? (
        <p className="muted">Opening the results…</p>
      ) : null}
    </div>
  );
}
