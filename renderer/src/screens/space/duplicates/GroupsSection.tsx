/** The duplicate groups: how many, the filters, the table to choose from, and the action to take. */
import { groupsPage } from '../../../../../app/common/groups-page.js';
import type { DuplicateGroup } from '../../../../../app/contract/space.js';
import {
  keepersInFolder,
  selectionText,
  type GroupFilter,
  type SelectionSummary,
} from '../duplicates-view.js';
import { GroupFilters } from '../GroupFilters.js';
import { GroupTable } from '../GroupTable.js';

export function GroupsSection({
  root,
  groupCount,
  onMoreGroups,
  allGroups,
  groups,
  filter,
  onFilter,
  keepers,
  onKeepers,
  trashMode,
  selected,
  onSelected,
  reveal,
  summary,
  state,
  onReview,
  onRescan,
}: {
  root: string;
  /** The scan's groups in all; `allGroups` are those loaded so far (a page at a time). */
  groupCount: number;
  onMoreGroups: () => void;
  allGroups: readonly DuplicateGroup[];
  groups: DuplicateGroup[];
  filter: GroupFilter;
  onFilter: (filter: GroupFilter) => void;
  keepers: Record<string, string>;
  onKeepers: (update: (keepers: Record<string, string>) => Record<string, string>) => void;
  trashMode: boolean;
  selected: Set<string>;
  onSelected: (update: (selected: Set<string>) => Set<string>) => void;
  reveal: { label: string; reveal: (file: string) => Promise<void> };
  summary: SelectionSummary;
  /** Where applying stands: 'none' (nothing planned yet) enables the action. */
  state: 'none' | 'planning' | 'confirm' | 'applying' | 'applied';
  onReview: () => void;
  onRescan: () => void;
}) {
  const applied = state === 'applied';
  const locked = applied || state === 'applying';
  const toggle = (id: string) =>
    onSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <section className="space-groups" aria-labelledby="groups-title">
      <div className="toolbar">
        <h2 id="groups-title" className="section-title">
          {groups.length.toLocaleString('en-US')} duplicate{' '}
          {groups.length === 1 ? 'group' : 'groups'}
          {groups.length < groupCount ? ` shown of ${groupCount.toLocaleString('en-US')}` : ''},
          largest saving first
        </h2>
      </div>
      <GroupFilters
        filter={filter}
        disabled={locked}
        onFilter={onFilter}
        onKeepInFolder={() => onKeepers(() => keepersInFolder(allGroups, filter.folder))}
        onKeepOldest={() => onKeepers(() => ({}))}
      />
      <GroupTable
        root={root}
        groups={groups}
        mode={trashMode ? 'trash' : 'clone'}
        keepers={keepers}
        onKeep={(id, file) => onKeepers((k) => ({ ...k, [id]: file }))}
        revealLabel={reveal.label}
        onReveal={(file) => void reveal.reveal(file)}
        selected={selected}
        disabled={locked}
        onToggle={toggle}
        onToggleAll={(all) =>
          onSelected(() => (all ? new Set(groups.map((g) => g.id)) : new Set()))
        }
      />
      {allGroups.length < groupCount ? (
        <p className="space-more-groups">
          <span className="muted">
            {allGroups.length.toLocaleString('en-US')} of {groupCount.toLocaleString('en-US')}{' '}
            groups loaded, largest saving first; filters and choices apply to those loaded.{' '}
          </span>
          <button type="button" className="button" onClick={onMoreGroups}>
            Load {Math.min(groupsPage, groupCount - allGroups.length).toLocaleString('en-US')} more
          </button>
        </p>
      ) : null}
      <div className="space-action-bar">
        <span className="muted" data-testid="selection-summary">
          {applied
            ? 'These groups were changed: scan again to see the folder as it is now.'
            : selectionText(summary)}
        </span>
        {applied ? (
          <button type="button" className="button" onClick={onRescan}>
            Scan again
          </button>
        ) : (
          <button
            type="button"
            className="button button-primary"
            disabled={summary.groups === 0 || state !== 'none'}
            onClick={onReview}
          >
            {state === 'planning'
              ? 'Checking…'
              : trashMode
                ? 'Move copies to Trash…'
                : 'Replace copies with clones…'}
          </button>
        )}
      </div>
    </section>
  );
}
