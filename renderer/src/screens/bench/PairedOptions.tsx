/** The two-disk test's own options: the second folder (B) and which ways the two move data together. */
import { useId } from 'react';
import type { PairedDirection } from '../../../../app/contract/plan.js';
import type { AppAbout } from '../../../../app/contract/app.js';
import type { PlumbClient } from '../../client.js';

const directions: { value: PairedDirection; label: string }[] = [
  { value: 'both', label: 'Same and opposite ways' },
  { value: 'same', label: 'Same way (both write, both read)' },
  { value: 'opposite', label: 'Opposite ways (one writes, one reads)' },
];

export function PairedOptions({
  client,
  about,
  pairedWith,
  onPairedWith,
  direction,
  onDirection,
  onError,
}: {
  client: PlumbClient;
  about: AppAbout | null;
  pairedWith: string;
  onPairedWith: (path: string) => void;
  direction: PairedDirection;
  onDirection: (direction: PairedDirection) => void;
  onError: (message: string) => void;
}) {
  const secondId = useId();
  const directionId = useId();
  const choose = async () => {
    try {
      const { path } = await client.call('dialog.chooseFolder', {
        title: 'Choose the second folder',
      });
      if (path) onPairedWith(path);
    } catch (error) {
      onError((error as Error).message);
    }
  };
  return (
    <div className="options-row paired-options">
      <div className="option option-wide">
        <label htmlFor={secondId}>Second folder (B)</label>
        <div className="folder-row">
          <input
            id={secondId}
            className="text-input"
            placeholder="A folder on the other disk, e.g. /Volumes/Second"
            value={pairedWith}
            onChange={(event) => onPairedWith(event.target.value)}
            spellCheck={false}
          />
          {about?.transport === 'electron' ? (
            <button type="button" className="button" onClick={() => void choose()}>
              Choose…
            </button>
          ) : null}
        </div>
      </div>
      <div className="option">
        <label htmlFor={directionId}>Together</label>
        <select
          id={directionId}
          className="select-input"
          value={direction}
          onChange={(event) => onDirection(event.target.value as PairedDirection)}
        >
          {directions.map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
