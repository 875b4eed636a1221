import { createContext, useContext, useState } from 'react';
import { formatLatency } from '../../../../app/common/format.js';
import { queueTestWords } from '../../../../app/common/plan-kind-presets.js';
import { useChartTheme } from '../charts/chart-theme.js';
import { gridFigure, gridNumber, gridText, type GridSource, type GridUnit } from './grid-copy.js';
import { copyOrSavePng, copyText, gridPng } from './grid-image.js';
import { withoutPass, type GridCell, type GridRow } from './presets-grid.js';
import './grid.css';

/** The volume and start of the run a grid shows, for "Copy as text" and "Copy as image". */
export const GridSourceContext = createContext<GridSource | null>(null);

function Cell({
  cell,
  direction,
  unit,
}: {
  cell: GridCell | null;
  direction: string;
  unit: GridUnit;
}) {
  if (!cell) return <td className="grid-cell grid-cell-none">—</td>;
  const random = /^RND/i.test(cell.name);
  const figure = gridFigure(cell, unit);
  return (
    <td
      className={`grid-cell grid-cell-${cell.state}`}
      aria-label={`${withoutPass(cell.name)}: ${cell.state === 'pending' ? 'waiting' : figure}`}
    >
      <span className="grid-value">
        {cell.state === 'pending' ? '·' : (gridNumber(cell, unit) ?? '—')}
      </span>
      <span className="grid-detail">
        {cell.state === 'pending'
          ? `${direction} waiting`
          : cell.state === 'running'
            ? 'measuring…'
            : unit === 'IOPS'
              ? gridFigure(cell, 'MB/s')
              : random || cell.latencyP50 === null
                ? gridFigure(cell, 'IOPS')
                : `typically ${formatLatency(cell.latencyP50)}`}
      </span>
    </td>
  );
}

/**
 * The queue-depth grid, CrystalDiskMark-style: a row per test, read and write side by side, in
 * MB/s or IOPS, to copy as text or as an image.
 */
/** `print`: for a printed report, the figures only (no unit switch, no Copy buttons). */
export function PresetsGridView({ rows, print = false }: { rows: GridRow[]; print?: boolean }) {
  const source = useContext(GridSourceContext);
  const theme = useChartTheme();
  const [unit, setUnit] = useState<GridUnit>('MB/s');
  const [said, setSaid] = useState('');
  const complete = rows.every((r) => r.read?.state !== 'pending' && r.write?.state !== 'pending');

  const copyAsImage = async () => {
    try {
      const png = await gridPng(rows, unit, source, theme);
      setSaid(await copyOrSavePng(png, 'plumb-grid.png'));
    } catch (error) {
      setSaid((error as Error).message);
    }
  };

  return (
    <div className="presets-grid-box">
      {print ? null : (
        <>
          <div className="grid-toolbar">
            <div className="grid-units" role="radiogroup" aria-label="Show figures in">
              {(['MB/s', 'IOPS'] as const).map((choice) => (
                <label
                  key={choice}
                  className={`grid-unit ${unit === choice ? 'grid-unit-on' : ''}`}
                >
                  <input
                    type="radio"
                    name="grid-unit"
                    className="visually-hidden"
                    checked={unit === choice}
                    onChange={() => setUnit(choice)}
                  />
                  {choice}
                </label>
              ))}
            </div>
            <button
              type="button"
              className="button button-small button-quiet"
              disabled={!complete}
              onClick={() => void copyText(gridText(rows, unit, source)).then(setSaid)}
            >
              Copy as text
            </button>
            <button
              type="button"
              className="button button-small button-quiet"
              disabled={!complete}
              onClick={() => void copyAsImage()}
            >
              Copy as image
            </button>
          </div>
          <p className="grid-said muted" role="status">
            {said}
          </p>
        </>
      )}
      <div className="grid-scroll">
        <table className="presets-grid">
          <caption className="visually-hidden">Queue-depth results</caption>
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">Read ({unit})</th>
              <th scope="col">Write ({unit})</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.test}>
                <th scope="row" className="grid-test">
                  {queueTestWords(row.test) ?? row.test}
                  {queueTestWords(row.test) ? (
                    <span className="grid-test-code">{row.test}</span>
                  ) : null}
                </th>
                <Cell cell={row.read} direction="read" unit={unit} />
                <Cell cell={row.write} direction="write" unit={unit} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
