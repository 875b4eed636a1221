/** The top of a report's first page: what it is, what it is about, and the facts a reader needs. */
import type { ReactNode } from 'react';

export type Fact = readonly [label: string, value: ReactNode];

export function ReportCover({
  kind,
  title,
  lines,
  facts,
}: {
  kind: string;
  title: string;
  /** Short facts on one line under the title. */
  lines?: string[];
  facts: readonly Fact[];
}) {
  return (
    <header className="report-cover">
      <div className="report-brand">
        <span className="report-brand-mark" aria-hidden="true" />
        <span>Plumb</span>
        <span className="report-kind">{kind}</span>
      </div>
      <h1 className="report-title">{title}</h1>
      {lines?.length ? (
        <p className="report-lines">
          {lines.map((line) => (
            <span key={line}>{line}</span>
          ))}
        </p>
      ) : null}
      <dl className="report-facts">
        {facts.map(([label, value]) => (
          <div className="report-fact" key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </header>
  );
}
