/** Narrow the duplicate groups by size and folder, and choose which file of each group stays. */
import type { GroupFilter } from './duplicates-view.js';

const sizeSteps = [
  { label: 'Any size', bytes: 0 },
  { label: '1 MB or more', bytes: 1e6 },
  { label: '10 MB or more', bytes: 10e6 },
  { label: '100 MB or more', bytes: 100e6 },
  { label: '1 GB or more', bytes: 1e9 },
];

export function GroupFilters({
  filter,
  disabled,
  onFilter,
  onKeepInFolder,
  onKeepOldest,
}: {
  filter: GroupFilter;
  disabled: boolean;
  onFilter: (filter: GroupFilter) => void;
  onKeepInFolder: () => void;
  onKeepOldest: () => void;
}) {
  return (
    <div className="group-filters" role="group" aria-label="Filter groups">
      <label>
        <span className="muted">Files of</span>{' '}
        <select
          value={filter.minBytes}
          onChange={(event) => onFilter({ ...filter, minBytes: Number(event.target.value) })}
        >
          {sizeSteps.map((step) => (
            <option key={step.bytes} value={step.bytes}>
              {step.label}
            </option>
          ))}
        </select>
      </label>
      <label className="group-filter-folder">
        <span className="muted">In folder</span>{' '}
        <input
          type="text"
          className="mono"
          placeholder="any folder"
          value={filter.folder}
          onChange={(event) => onFilter({ ...filter, folder: event.target.value })}
        />
      </label>
      <button
        type="button"
        className="button"
        disabled={disabled || !filter.folder.trim()}
        onClick={onKeepInFolder}
      >
        Keep the copies in this folder
      </button>
      <button type="button" className="button" disabled={disabled} onClick={onKeepOldest}>
        Keep the oldest
      </button>
    </div>
  );
}
