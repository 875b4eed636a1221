/** Advanced: how much free space a test must leave on the disk (the free-space guard). */
import { useId } from 'react';
import { formatBytes } from '../../../../../app/common/format.js';
import { parseSizeInput } from '../../../../../app/common/units.js';
import {
  defaultReserveText,
  reserveBytes,
  reserveFloor,
  uiReserveBytes,
} from '../../../../../app/common/reserve.js';

export function ReserveOption({
  volumeBytes,
  text,
  onText,
  invalid,
}: {
  /** The size of the chosen volume; null before one is chosen. */
  volumeBytes: number | null;
  text: string;
  onText: (text: string) => void;
  invalid: boolean;
}) {
  const inputId = useId();
  const hintId = useId();
  const standard = volumeBytes === null ? null : uiReserveBytes(volumeBytes);
  const floor = volumeBytes === null ? null : reserveBytes(volumeBytes, reserveFloor);
  const typed = text.trim() ? parseSizeInput(text) : null;
  // A figure under the floor is raised to it: said here, not done silently.
  const raised = typed !== null && floor !== null && typed < floor;
  return (
    <details className="advanced-options" open={text.trim() !== '' || undefined}>
      <summary>Advanced</summary>
      <div className="option">
        <label htmlFor={inputId}>Keep free on the disk</label>
        <input
          id={inputId}
          className="text-input total-input"
          placeholder={standard === null ? 'e.g. 2 GB' : formatBytes(standard)}
          value={text}
          aria-invalid={invalid}
          aria-describedby={hintId}
          onChange={(event) => onText(event.target.value)}
        />
      </div>
      <p id={hintId} className="muted option-hint">
        {invalid
          ? 'Type a size such as 2 GB or 500MB.'
          : raised
            ? `${formatBytes(typed)} is less than Plumb leaves free on this disk: tests keep ${formatBytes(floor)} free.`
            : standard !== null && floor !== null
              ? `A test stops before the disk has less than this free: by default ${formatBytes(standard)} here (${defaultReserveText}). You can lower it to ${formatBytes(floor)}, not below.`
              : 'A test stops before the disk has less than this free.'}
      </p>
    </details>
  );
}
