import { useState } from 'react';
import type { ResultListItem } from '../../../../app/contract/bench.js';
import { formatDateTime, formatRate } from '../../../../app/common/format.js';
import { capacityCheckLabel } from '../../../../app/common/capacity-check.js';
import { quickRunLabel } from '../../../../app/common/quick-run.js';
import { planTitle } from '../../ui/plan-catalogue.js';

const findingNames: Record<string, string> = {
  cliff: 'Cache cliff',
  throttling: 'Throttling',
  'exceeds-interface': 'Above interface',
  bimodal: 'Two speeds',
  'small-files': 'Small files',
  buffered: 'Buffered',
  unstable: 'Uneven',
  'within-cache': 'Within caches',
};

function itemTitle(item: ResultListItem): string {
  if (item.name) return item.name;
  const folder = item.volumePath.split(/[/\\]/).filter(Boolean).at(-1) ?? '/';
  return `${planTitle(item.plan)} · ${folder}`;
}

function EmptyResults() {
  return (
    <div className="empty-panel">
      <h2 className="empty-title">No results yet</h2>
      <ol className="empty-steps">
        <li>
          Open <a href="#/bench">Test a disk</a> and pick the disk you want to know about.
        </li>
        <li>
          Choose <strong>Standard</strong> for everyday speed, or <strong>Sustained write</strong>{' '}
          to find where a long copy slows down. Start with the quick scale to see how it goes.
        </li>
        <li>Watch the charts fill in; the verdict is saved here when the test ends.</li>
      </ol>
      <a className="button button-primary" href="#/bench">
        Test a disk
      </a>
    </div>
  );
}

export function ResultsList({
  items,
  onOpen,
  onCompare,
}: {
  items: ResultListItem[] | null;
  onOpen: (id: string) => void;
  onCompare: (ids: string[]) => void;
}) {
  const [selected, setSelected] = useState<string[]>([]);
  if (items === null) return <p className="muted list-loading">Loading results…</p>;
  if (items.length === 0) return <EmptyResults />;
  const toggle = (id: string) =>
    setSelected((now) => (now.includes(id) ? now.filter((x) => x !== id) : [...now, id]));
  const present = selected.filter((id) => items.some((item) => item.id === id));

  return (
    <div className="results-list">
      <div className="toolbar">
        <span className="muted" aria-live="polite">
          {present.length === 0
            ? `${items.length} saved ${items.length === 1 ? 'run' : 'runs'}`
            : `${present.length} selected`}
        </span>
        <button
          type="button"
          className="button button-primary"
          disabled={present.length < 2}
          onClick={() => onCompare(present)}
        >
          Compare{present.length >= 2 ? ` ${present.length}` : ''}
        </button>
      </div>
      <table className="data-table results-table">
        <caption className="visually-hidden">Saved results</caption>
        <thead>
          <tr>
            <th scope="col" className="select-col">
              <span className="visually-hidden">Compare</span>
            </th>
            <th scope="col">Run</th>
            <th scope="col">Folder</th>
            <th scope="col">When</th>
            <th scope="col" className="numeric">
              Write
            </th>
            <th scope="col" className="numeric">
              Read
            </th>
            <th scope="col">Findings</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const title = itemTitle(item);
            const quick = quickRunLabel({ scale: item.scale, plan: {} });
            const capacity = capacityCheckLabel(item.capacityCheck);
            return (
              <tr key={item.id} className={present.includes(item.id) ? 'is-selected' : undefined}>
                <td className="select-col">
                  <input
                    type="checkbox"
                    checked={present.includes(item.id)}
                    onChange={() => toggle(item.id)}
                    aria-label={`Select ${title} to compare`}
                  />
                </td>
                <td>
                  <button type="button" className="link-button" onClick={() => onOpen(item.id)}>
                    {title}
                  </button>
                  <span className="row-sub">
                    {planTitle(item.plan)} ·{' '}
                    {item.files ? `${item.files} files` : 'queue-depth runs'}
                  </span>
                  {quick ? (
                    <span className="chip chip-quick" data-testid="quick-run">
                      {quick}
                    </span>
                  ) : null}
                  {capacity ? (
                    <span
                      className={`chip chip-capacity-${item.capacityCheck}`}
                      data-testid="capacity-check"
                    >
                      {capacity}
                    </span>
                  ) : null}
                </td>
                <td className="path-cell" title={item.volumePath}>
                  {item.volumePath}
                </td>
                <td className="nowrap">{formatDateTime(item.startedAt)}</td>
                <td className="numeric" data-testid="list-write">
                  {formatRate(item.writeMedian)}
                </td>
                <td className="numeric" data-testid="list-read">
                  {formatRate(item.readMedian)}
                </td>
                <td>
                  <span className="chips">
                    {[...new Set(item.findings)].map((kind) => (
                      <span key={kind} className={`chip chip-${kind}`}>
                        {findingNames[kind] ?? kind}
                      </span>
                    ))}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
