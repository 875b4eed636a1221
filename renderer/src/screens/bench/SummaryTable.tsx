import type { ResultDocument } from '../../../../app/contract/bench.js';
import { summaryRows } from './summary-table.js';

/** Every statistic the engine computed, write and read side by side. */
export function SummaryTable({ summary }: { summary: ResultDocument['summary'] }) {
  const rows = summaryRows(summary);
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
          <tr key={row.method}>
            <th scope="row">
              <span className="method-name">{row.method}</span>
              <span className="method-meaning">{row.meaning}</span>
            </th>
            <td className="numeric">{row.write}</td>
            <td className="numeric">{row.read}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
