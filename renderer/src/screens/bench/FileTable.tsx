/** Every file of a run in a sortable table that draws only the rows in view (10,000 stay quick). */
import { useMemo, useState, type UIEvent } from 'react';
import type { FileRecord } from '../../../../app/contract/bench.js';
import { formatBytes } from '../../format.js';
import {
  fileRows,
  nextSort,
  sortFileRows,
  visibleRows,
  type FileColumn,
  type FileSort,
} from './file-table.js';
import { formatDuration, formatLatency, formatRate } from './measure-format.js';

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

/** `print`: every row in run order, no scrolling or sorting (the appendix of a printed report). */
export function FileTable({ files, print = false }: { files: FileRecord[]; print?: boolean }) {
  const [sort, setSort] = useState<FileSort>({ column: 'order', direction: 'ascending' });
  const [scrollTop, setScrollTop] = useState(0);
  const rows = useMemo(() => sortFileRows(fileRows(files), sort), [files, sort]);
  const range = print
    ? visibleRows(rows.length, rowHeight, 0, rows.length * rowHeight, 0)
    : visibleRows(rows.length, rowHeight, scrollTop, viewportHeight);
  const onScroll = (event: UIEvent<HTMLDivElement>) => setScrollTop(event.currentTarget.scrollTop);

  return (
    <div
      className={`file-table${print ? ' file-table-print' : ''}`}
      role="table"
      aria-label="Files"
      aria-rowcount={rows.length + 1}
    >
      <div className="file-table-head" role="rowgroup">
        <div className="file-row" role="row" aria-rowindex={1}>
          {columns.map((column) => (
            <div
              key={column.id}
              role="columnheader"
              className={`file-cell file-cell-${column.id}`}
              aria-sort={sort.column === column.id ? sort.direction : 'none'}
            >
              {print ? (
                column.title
              ) : (
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
              )}
            </div>
          ))}
        </div>
      </div>
      <div
        className="file-table-body"
        role="rowgroup"
        tabIndex={print ? undefined : 0}
        aria-label={print ? 'File rows' : 'File rows, scrollable'}
        onScroll={print ? undefined : onScroll}
        style={
          print
            ? undefined
            : { height: Math.min(viewportHeight, Math.max(rowHeight, rows.length * rowHeight)) }
        }
      >
        <div style={print ? undefined : { height: range.totalHeight, position: 'relative' }}>
          <div style={print ? undefined : { transform: `translateY(${range.offsetTop}px)` }}>
            {rows.slice(range.first, range.last).map((row, index) => (
              <div
                className={`file-row file-row-${row.phase}`}
                role="row"
                key={row.order}
                aria-rowindex={range.first + index + 2}
                style={print ? undefined : { height: rowHeight }}
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
