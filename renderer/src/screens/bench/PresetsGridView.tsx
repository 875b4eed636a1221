import { formatIops, formatLatency, formatRate } from '../../../../app/common/format.js';
import type { GridCell, GridRow } from './presets-grid.js';

function Cell({ cell, direction }: { cell: GridCell | null; direction: string }) {
  if (!cell) return <td className="grid-cell grid-cell-none">—</td>;
  const random = /^RND/i.test(cell.name);
  return (
    <td
      className={`grid-cell grid-cell-${cell.state}`}
      aria-label={`${cell.name}: ${cell.state === 'pending' ? 'waiting' : formatRate(cell.bytesPerSecond)}`}
    >
      <span className="grid-value">
        {cell.state === 'pending' ? '·' : formatRate(cell.bytesPerSecond)}
      </span>
      <span className="grid-detail">
        {cell.state === 'pending'
          ? `${direction} waiting`
          : cell.state === 'running'
            ? 'measuring…'
            : random
              ? formatIops(cell.iops)
              : cell.latencyP50 !== null
                ? `p50 ${formatLatency(cell.latencyP50)}`
                : formatIops(cell.iops)}
      </span>
    </td>
  );
}

/** The queue-depth grid, CrystalDiskMark-style: a row per test, read and write side by side. */
export function PresetsGridView({ rows }: { rows: GridRow[] }) {
  return (
    <table className="presets-grid">
      <caption className="visually-hidden">Queue-depth results</caption>
      <thead>
        <tr>
          <th scope="col">Test</th>
          <th scope="col">Read</th>
          <th scope="col">Write</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.test}>
            <th scope="row" className="grid-test">
              {row.test}
            </th>
            <Cell cell={row.read} direction="read" />
            <Cell cell={row.write} direction="write" />
          </tr>
        ))}
      </tbody>
    </table>
  );
}
