/** Two or more results side by side: a table of their headline figures and the same two charts. */
import { useMemo } from 'react';
import type { ResultDocument } from '../../../../app/contract/bench-result.js';
import { formatRate } from '../../../../app/common/format.js';
import { RateChart, type RateSeries } from '../charts/RateChart.js';
import { comparisonRows, overlaySeries, type OverlaySeries } from './compare.js';
import { cumulativeChartWords } from './series.js';

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
