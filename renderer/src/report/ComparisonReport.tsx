/** Several results as one report: what each run was, their figures side by side, every finding. */
import type { ReportModel } from '../../../app/contract/report.js';
import { ComparisonCharts, ComparisonTable } from '../ui/result/Comparison.js';
import { resultTitle, seriesPalette } from '../ui/result/compare.js';
import { FindingsList } from '../ui/result/FindingsList.js';
import { quietVerdict } from '../ui/result/quiet-verdict.js';
import { ReportCover } from './ReportCover.js';
import { planText, whenText } from './ResultReport.js';

export function ComparisonReport({
  model,
}: {
  model: Extract<ReportModel, { kind: 'comparison' }>;
}) {
  const { results } = model;
  return (
    <>
      <ReportCover
        kind="Benchmark comparison"
        title={model.title}
        lines={[model.subject]}
        facts={[
          ['Results', String(results.length)],
          ['Baseline', resultTitle(results[0]!)],
          [
            'Reading the charts',
            'Circles are writes, diamonds reads; each result keeps its colour.',
          ],
        ]}
      />
      <section className="report-section">
        <h2 className="section-title">The runs</h2>
        <table className="data-table report-runs">
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Device and volume</th>
              <th scope="col">Operating system</th>
              <th scope="col">Plan and cache</th>
            </tr>
          </thead>
          <tbody>
            {results.map((document, index) => {
              const volume = document.environment.volume;
              return (
                <tr key={document.id}>
                  <td>
                    <span
                      className="swatch"
                      style={{ background: seriesPalette[index % seriesPalette.length] }}
                      aria-hidden="true"
                    />
                    {resultTitle(document)}
                    <span className="row-sub">{whenText(document)}</span>
                  </td>
                  <td>
                    {volume.path}
                    <span className="row-sub">
                      {[volume.fsType, volume.bus?.toUpperCase()].filter(Boolean).join(' · ')}
                    </span>
                  </td>
                  <td>{document.environment.os}</td>
                  <td>
                    {planText(document)}
                    <span className="row-sub">
                      {document.environment.cacheMode === 'direct' ? 'uncached' : 'buffered'} ·
                      Plumb {document.app.version}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      <section className="report-section">
        <h2 className="section-title">Headline figures</h2>
        <ComparisonTable documents={results} />
      </section>
      <ComparisonCharts documents={results} print />
      <section className="report-section report-findings">
        <h2 className="section-title">Findings</h2>
        {results.map((document, index) => (
          <div className="report-findings-run" key={document.id}>
            <h3 className="report-run-title">
              <span
                className="swatch"
                style={{ background: seriesPalette[index % seriesPalette.length] }}
                aria-hidden="true"
              />
              {resultTitle(document)}
            </h3>
            <FindingsList
              findings={document.findings}
              emptyText={document.findings.length === 0 ? quietVerdict(document) : undefined}
              print
            />
          </div>
        ))}
      </section>
    </>
  );
}
