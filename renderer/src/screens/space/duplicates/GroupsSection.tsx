/** The duplicate groups: how many, the filters, the table to choose from, and the action to take. */
import { groupsPage } from '../../../../../app/common/groups-page.js';
import type { DuplicateGroup } from '../../../../../app/contract/space.js';
import {
  keepersInFolder,
  selectionText,
  type GroupFilter,
  type SelectionSummary,
  type PlanFrees,
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
  planFrees,
  selected,
  onSelected,
  reveal,
  summary,
  state,
  blocked,
  onReview,
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
  /** What acting on each group frees, as the dry run counts it (null until known). */
  planFrees: PlanFrees | null;
  selected: Set<string>;
  onSelected: (update: (selected: Set<string>) => Set<string>) => void;
  reveal: { label: string; reveal: (file: string) => Promise<void> };
  summary: SelectionSummary;
  /**
   * Where applying stands: nothing planned yet, or the last apply ended (its groups are shown as
   * they now are), enables the action.
   */
  state: 'none' | 'planning' | 'confirm' | 'applying' | 'applied';
  /** Why nothing here can be changed (a read-only disk), said in place of the action; or null. */
  blocked: string | null;
  onReview: () => void;
}) {
  const ready = state === 'none' || state === 'applied';
  const locked = state === 'applying';
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
        onKeepInFolder={() => onKeepers(() => keepersInFolder(allGroups, filter.folder, root))}
        onKeepOldest={() => onKeepers(() => ({}))}
      />
      <GroupTable
        root={root}
        groups={groups}
        mode={trashMode ? 'trash' : 'clone'}
        planFrees={planFrees}
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
          {selectionText(summary)}
        </span>
        {blocked ? (
          <span className="space-blocked" role="note" data-testid="action-blocked">
            {blocked}
          </span>
        ) : null}
        <button
          type="button"
          className="button button-primary"
          disabled={summary.groups === 0 || !ready || blocked !== null}
          onClick={onReview}
        >
          {state === 'planning'
            ? 'Checking…'
            : trashMode
              ? 'Move copies to Trash…'
              : 'Replace copies with clones…'}
        </button>
      </div>
    </section>
  );
}
