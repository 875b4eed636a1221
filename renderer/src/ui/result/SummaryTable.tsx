import type { ResultDocument } from '../../../../app/contract/bench-result.js';
import { summaryRows } from './summary-table.js';

/** The headline and every statistic the engine computed, write and read side by side. */
export function SummaryTable({
  document,
}: {
  document: Pick<ResultDocument, 'summary' | 'headline'>;
}) {
  const rows = summaryRows(document);
  return (
    <table className="data-table summary-table">
      <caption className="visually-hidden">Summary by method</caption>
      <thead>
        <tr>
          <th scope="col">Method</th>
          <th scope="col" className="numeric">
            Write
          </th>
          <th scope="col" className="numeric">
            Read
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.method}
            data-testid={`summary-${row.method.toLowerCase().replace(/\W+/g, '-')}`}
          >
            <th scope="row">
              <span className="method-name">{row.method}</span>
              <span className="method-meaning">{row.meaning}</span>
            </th>
            {[row.write, row.read].map((cell, k) => (
              <td key={k} className="numeric">
                {cell.value}
                {cell.note ? <span className="row-sub cell-note">{cell.note}</span> : null}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
