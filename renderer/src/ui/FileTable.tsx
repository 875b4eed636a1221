/** Every file of a run in a sortable table that draws only the rows in view (10,000 stay quick). */
import { useMemo, useState, type UIEvent } from 'react';
import type { FileRecord } from '../../../app/contract/bench-result.js';
import {
  formatBytes,
  formatDuration,
  formatLatency,
  formatRate,
} from '../../../app/common/format.js';
import {
  fileRows,
  nextSort,
  sortFileRows,
  visibleRows,
  type FileColumn,
  type FileSort,
} from './file-table.js';

const rowHeight = 30;
const viewportHeight = 360;

const columns: {
  id: FileColumn;
  title: string;
  format: (row: ReturnType<typeof fileRows>[number]) => string;
}[] = [
  { id: 'order', title: '#', format: (r) => String(r.order) },
  { id: 'phase', title: 'Phase', format: (r) => (r.phase === 'write' ? 'Write' : 'Read') },
  { id: 'bytes', title: 'Size', format: (r) => formatBytes(r.bytes) },
  {
    id: 'seconds',
    title: 'Time',
    format: (r) => (r.seconds < 1 ? formatLatency(r.seconds) : formatDuration(r.seconds)),
  },
  { id: 'rate', title: 'Rate', format: (r) => formatRate(r.rate) },
  { id: 'cumulativeBytes', title: 'Data so far', format: (r) => formatBytes(r.cumulativeBytes) },
  { id: 't', title: 'At', format: (r) => formatDuration(r.t) },
];

/**
 * The appendix of a printed report: every row in run order as a real table, whose header the
 * browser repeats at the top of every printed page.
 */
function PrintFileTable({ rows }: { rows: ReturnType<typeof fileRows> }) {
  return (
    <table className="file-table-print" aria-label="Files">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.id} scope="col" className={`file-cell file-cell-${column.id}`}>
              {column.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.order} className={`file-row-${row.phase}`}>
            {columns.map((column) => (
              <td key={column.id} className={`file-cell file-cell-${column.id}`}>
                {column.format(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** `print`: every row in run order, no scrolling or sorting (the appendix of a printed report). */
export function FileTable({ files, print = false }: { files: FileRecord[]; print?: boolean }) {
  const [sort, setSort] = useState<FileSort>({ column: 'order', direction: 'ascending' });
  const [scrollTop, setScrollTop] = useState(0);
  const rows = useMemo(() => sortFileRows(fileRows(files), sort), [files, sort]);
  if (print) return <PrintFileTable rows={rows} />;
  const range = visibleRows(rows.length, rowHeight, scrollTop, viewportHeight);
  const onScroll = (event: UIEvent<HTMLDivElement>) => setScrollTop(event.currentTarget.scrollTop);

  return (
    <div className="file-table" role="table" aria-label="Files" aria-rowcount={rows.length + 1}>
      <div className="file-table-head" role="rowgroup">
        <div className="file-row" role="row" aria-rowindex={1}>
          {columns.map((column) => (
            <div
              key={column.id}
              role="columnheader"
              className={`file-cell file-cell-${column.id}`}
              aria-sort={sort.column === column.id ? sort.direction : 'none'}
            >
              <button
                type="button"
                className="sort-button"
                onClick={() => setSort(nextSort(sort, column.id))}
              >
                {column.title}
                <span className="sort-arrow" aria-hidden="true">
                  {sort.column === column.id ? (sort.direction === 'ascending' ? '▲' : '▼') : ''}
                </span>
              </button>
            </div>
          ))}
        </div>
      </div>
      <div
        className="file-table-body"
        role="rowgroup"
        tabIndex={0}
        aria-label="File rows, scrollable"
        onScroll={onScroll}
        style={{ height: Math.min(viewportHeight, Math.max(rowHeight, rows.length * rowHeight)) }}
      >
        <div style={{ height: range.totalHeight, position: 'relative' }}>
          <div style={{ transform: `translateY(${range.offsetTop}px)` }}>
            {rows.slice(range.first, range.last).map((row, index) => (
              <div
                className={`file-row file-row-${row.phase}`}
                role="row"
                key={row.order}
                aria-rowindex={range.first + index + 2}
                style={{ height: rowHeight }}
              >
                {columns.map((column) => (
                  <div key={column.id} role="cell" className={`file-cell file-cell-${column.id}`}>
                    {column.format(row)}
                  </div>
                ))}
              </div>
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}
