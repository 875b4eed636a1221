/** Duplicate groups, largest saving first, with a checkbox each; draws only the rows in view. */
import { useState, type UIEvent } from 'react';
import type { DuplicateGroup } from '../../../../app/contract/space.js';
import { formatBytes } from '../../../../app/common/format.js';
import { visibleRows } from '../../ui/file-table.js';
import {
  bytesOrUnknown,
  reclaimableOf,
  relativeToRoot,
  removableBytes,
  type PlanFrees,
} from './duplicates-view.js';

const rowHeight = 58;
const viewportHeight = 464;

function baseName(file: string): string {
  return file.split(/[\\/]/).filter(Boolean).at(-1) ?? file;
}

export function GroupTable({
  root,
  groups,
  mode = 'clone',
  planFrees = null,
  keepers = {},
  onKeep,
  revealLabel,
  onReveal,
  selected,
  disabled,
  onToggle,
  onToggleAll,
}: {
  /** The scanned folder: paths read relative to it. */
  root: string;
  groups: DuplicateGroup[];
  /** 'trash' on disks without clones: the last column is what removing the copies frees. */
  mode?: 'clone' | 'trash';
  /** What acting on each group frees, as the dry run of the current keep choices counts it. */
  planFrees?: PlanFrees | null;
  /** The file kept per group id when not the scan's keeper (chosen by hand or by folder). */
  keepers?: Readonly<Record<string, string>>;
  /** Choose which file of a group stays (the one the Trash spares, or the others become clones of). */
  onKeep?: (groupId: string, file: string) => void;
  /** "Show in Finder" in the desktop app, "Copy path" in a browser. */
  revealLabel?: string;
  onReveal?: (file: string) => void;
  selected: ReadonlySet<string>;
  disabled: boolean;
  onToggle: (id: string) => void;
  onToggleAll: (select: boolean) => void;
}) {
  const [scrollTop, setScrollTop] = useState(0);
  const range = visibleRows(groups.length, rowHeight, scrollTop, viewportHeight);
  const all = groups.length > 0 && groups.every((g) => selected.has(g.id));
  const some = !all && groups.some((g) => selected.has(g.id));
  const onScroll = (event: UIEvent<HTMLDivElement>) => setScrollTop(event.currentTarget.scrollTop);

  return (
    <div
      className="group-table"
      role="table"
      aria-label="Duplicate groups"
      aria-rowcount={groups.length + 1}
    >
      <div className="group-row group-head" role="row" aria-rowindex={1}>
        <div role="columnheader" className="group-cell group-select">
          <input
            type="checkbox"
            aria-label="Select every group"
            checked={all}
            ref={(el) => {
              if (el) el.indeterminate = some;
            }}
            disabled={disabled}
            onChange={() => onToggleAll(!all)}
          />
        </div>
        <div role="columnheader" className="group-cell">
          File and its copies
        </div>
        <div role="columnheader" className="group-cell numeric">
          Size
        </div>
        <div role="columnheader" className="group-cell numeric">
          Copies
        </div>
        <div role="columnheader" className="group-cell numeric">
          Already shared
        </div>
        <div role="columnheader" className="group-cell numeric" aria-sort="descending">
          {mode === 'trash' ? 'Removing frees' : 'Reclaimable'}
        </div>
      </div>
      <div
        className="group-body"
        role="rowgroup"
        style={{ maxHeight: viewportHeight }}
        onScroll={onScroll}
      >
        <div style={{ height: range.totalHeight, position: 'relative' }}>
          <div style={{ transform: `translateY(${range.offsetTop}px)` }}>
            {groups.slice(range.first, range.last).map((group, index) => {
              const keeper = keepers[group.id] ?? group.keeper;
              const name = baseName(keeper);
              const copies = group.files.filter((f) => f.path !== keeper);
              const isSelected = selected.has(group.id);
              // 0 B is not a saving (a group already sharing its storage): not coloured as one.
              const frees =
                mode === 'trash'
                  ? removableBytes(group, planFrees)
                  : reclaimableOf(group, planFrees);
              return (
                <div
                  key={group.id}
                  className={`group-row${isSelected ? ' is-selected' : ''}`}
                  role="row"
                  aria-rowindex={range.first + index + 2}
                  style={{ height: rowHeight }}
                >
                  <div role="cell" className="group-cell group-select">
                    <input
                      type="checkbox"
                      aria-label={`Select ${name} and its ${copies.length === 1 ? 'copy' : `${copies.length} copies`}`}
                      checked={isSelected}
                      disabled={disabled}
                      onChange={() => onToggle(group.id)}
                    />
                  </div>
                  <div role="cell" className="group-cell group-files">
                    <span
                      className="group-name"
                      title={keeper}
                      onClick={() => {
                        if (!disabled) onToggle(group.id);
                      }}
                    >
                      {name}
                      {group.note ? (
                        <span className="group-note" title={group.note}>
                          {' '}
                          · {group.note}
                        </span>
                      ) : null}
                    </span>
                    <span className="group-paths" title={group.files.map((f) => f.path).join('\n')}>
                      Keeps{' '}
                      {onKeep ? (
                        <select
                          className="group-keep mono"
                          aria-label={`File of ${name} to keep`}
                          value={keeper}
                          disabled={disabled}
                          onChange={(event) => onKeep(group.id, event.target.value)}
                        >
                          {group.files.map((f) => (
                            <option key={f.path} value={f.path}>
                              {relativeToRoot(f.path, root)}
                            </option>
                          ))}
                        </select>
                      ) : (
                        <span className="mono">{relativeToRoot(keeper, root)}</span>
                      )}
                      {onReveal && revealLabel ? (
                        <button
                          type="button"
                          className="link-button"
                          aria-label={`${revealLabel}: ${name}`}
                          onClick={() => onReveal(keeper)}
                        >
                          {revealLabel}
                        </button>
                      ) : null}
                      {copies.length
                        ? ` · copies: ${copies.map((f) => relativeToRoot(f.path, root)).join(', ')}`
                        : ''}
                    </span>
                  </div>
                  <div role="cell" className="group-cell numeric">
                    {formatBytes(group.size)}
                  </div>
                  <div role="cell" className="group-cell numeric">
                    {copies.length}
                  </div>
                  <div role="cell" className="group-cell numeric">
                    {bytesOrUnknown(group.sharedBytes)}
                  </div>
                  <div
                    role="cell"
                    className={`group-cell numeric group-reclaimable${frees === 0 ? ' is-nothing' : ''}`}
                  >
                    {mode === 'trash'
                      ? `${planFrees?.has(group.id) ? '' : '≈ '}${formatBytes(frees ?? 0)}`
                      : bytesOrUnknown(frees)}
                  </div>
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
