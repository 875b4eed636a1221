/** The grid's test size and count, as CrystalDiskMark sets them ("1 GiB", "5"). */
import { useId, useMemo, useState } from 'react';
import { planIs } from '../../../../../app/common/plan-kinds.js';
import type { Plan } from '../../../../../app/contract/plan.js';
import {
  gridCounts,
  gridSizeLabel,
  gridSizes,
  withGridSettings,
  type GridSettings,
} from '../../../ui/result/presets-grid.js';

/**
 * The plans to choose from, the built-in grid with the size and count chosen (itself, sent by
 * name, while they are its own).
 */
export function useGridPlans(builtins: readonly Plan[], imported: readonly Plan[]) {
  const [grid, setGrid] = useState<GridSettings>({ fileBytes: 1024 ** 3, count: 1 });
  const plans = useMemo(
    () =>
      [...builtins, ...imported].map((p) =>
        planIs(p, 'presets') && builtins.includes(p) ? withGridSettings(p, grid) : p,
      ),
    [builtins, imported, grid],
  );
  return { plans, grid, setGrid };
}

export function GridOptions({
  settings,
  onSettings,
  scaled,
  problem,
}: {
  settings: GridSettings;
  onSettings: (next: GridSettings) => void;
  /** Whether a scale below full size shrinks the file and the time of each run. */
  scaled: boolean;
  /** Why these settings cannot run, in words. */
  problem: string | null;
}) {
  const sizeId = useId();
  const countId = useId();
  return (
    <fieldset className="grid-options" aria-label="Grid settings">
      <div className="grid-option">
        <label htmlFor={sizeId}>Test size</label>
        <select
          id={sizeId}
          value={settings.fileBytes}
          onChange={(event) => onSettings({ ...settings, fileBytes: Number(event.target.value) })}
        >
          {gridSizes.map((bytes) => (
            <option key={bytes} value={bytes}>
              {gridSizeLabel(bytes)}
            </option>
          ))}
        </select>
      </div>
      <div className="grid-option">
        <label htmlFor={countId}>Count</label>
        <select
          id={countId}
          value={settings.count}
          onChange={(event) => onSettings({ ...settings, count: Number(event.target.value) })}
        >
          {gridCounts.map((count) => (
            <option key={count} value={count}>
              {count}
            </option>
          ))}
        </select>
      </div>
      <p className="muted grid-option-note">
        Each test runs {settings.count === 1 ? 'once' : `${settings.count} times`}
        {settings.count > 1 ? ' and the grid shows its best' : ''} on a{' '}
        {gridSizeLabel(settings.fileBytes)} file
        {scaled ? ', both shrunk by the scale chosen under Options' : ''}.
      </p>
      {problem ? (
        <p className="banner banner-error grid-option-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </fieldset>
  );
}
