/** Step 3: the options that apply to the chosen test, and importing or exporting a plan. */
import { useId, useRef, type ChangeEvent } from 'react';
import type { PairedDirection, Plan } from '../../../../../app/contract/plan.js';
import type { AppAbout } from '../../../../../app/contract/app.js';
import type { PlumbClient } from '../../../client.js';
import { formatBytes } from '../../../../../app/common/format.js';
import { planKindOf } from '../../../../../app/common/plan-kinds.js';
import { saveTextFile } from '../../../ui/download.js';
import { PairedOptions } from '../PairedOptions.js';
import { planFileText } from '../../../ui/plan-catalogue.js';
import { ReserveOption } from './ReserveOption.js';

export const scales = [
  { value: 1, label: 'Full size' },
  { value: 0.1, label: 'A tenth of full size' },
  { value: 0.01, label: 'Quick (1 %)' },
] as const;

/** The options as the form holds them. */
export interface SetupChoices {
  scale: number;
  totalText: string;
  /** The ids of the chosen plan's switches turned off (sustained: time the recovery). */
  switchedOff: readonly string[];
  keepFiles: boolean;
  /** Read every file back after the run and check each block (plans whose kind offers it). */
  verify: boolean;
  buffered: boolean;
  pairedWith: string;
  direction: PairedDirection;
  /** "Keep free on the disk", as typed; empty for the default. */
  reserveText: string;
}

/** Whether --verify is offered: the kinds that write files to keep (a capacity check always does). */
export function canVerify(plan: Plan | undefined): boolean {
  return plan !== undefined && planKindOf(plan).options.verify === 'optional';
}

/** The label of a scale, for sentences that name one ("Quick (1 %)"). */
export function scaleLabel(scale: number): string {
  return scales.find((s) => s.value === scale)?.label ?? `${scale}`;
}

export function SetupOptions({
  client,
  about,
  plan,
  readFolder,
  choices,
  onChoices,
  totalPlaceholder,
  totalInvalid,
  needsSecond,
  volumeBytes,
  reserveInvalid,
  onImport,
  onError,
}: {
  client: PlumbClient;
  about: AppAbout | null;
  /** The chosen plan; undefined when reading a folder (or before the plans arrive). */
  plan: Plan | undefined;
  readFolder: boolean;
  choices: SetupChoices;
  onChoices: (patch: Partial<SetupChoices>) => void;
  /** What a run with a cap (sustained, capacity) writes unless told: its estimate, when known. */
  totalPlaceholder: number | undefined;
  totalInvalid: boolean;
  needsSecond: boolean;
  /** The chosen volume's size, for the reserve's default; null before one is chosen. */
  volumeBytes: number | null;
  reserveInvalid: boolean;
  /** Reads a plan file the user picked. */
  onImport: (file: File) => Promise<void>;
  onError: (text: string) => void;
}) {
  const importRef = useRef<HTMLInputElement | null>(null);
  const takes = plan ? planKindOf(plan).options : null;
  const totalId = useId();
  const scaleId = useId();

  const importPlan = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    await onImport(file);
  };

  return (
    <>
      {takes?.secondFolder ? (
        <PairedOptions
          client={client}
          about={about}
          pairedWith={choices.pairedWith}
          onPairedWith={(pairedWith) => onChoices({ pairedWith })}
          direction={choices.direction}
          onDirection={(direction) => onChoices({ direction })}
          onError={onError}
        />
      ) : null}
      <div className="options-row">
        {readFolder || takes?.quickScale === false ? null : (
          <div className="option">
            <label htmlFor={scaleId}>Scale</label>
            <select
              id={scaleId}
              className="select-input"
              value={choices.scale}
              onChange={(event) => onChoices({ scale: Number(event.target.value) })}
            >
              {scales.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
        )}
        {takes?.total ? (
          <div className="option">
            <label htmlFor={totalId}>{takes.total.label}</label>
            <input
              id={totalId}
              className="text-input total-input"
              placeholder={
                totalPlaceholder === undefined
                  ? takes.total.placeholder
                  : formatBytes(totalPlaceholder)
              }
              value={choices.totalText}
              aria-invalid={totalInvalid}
              onChange={(event) => onChoices({ totalText: event.target.value })}
            />
          </div>
        ) : null}
        {plan && takes
          ? takes.switches
              .filter((option) => option.offered(plan))
              .map((option) => (
                <label key={option.id} className="option option-check">
                  <input
                    type="checkbox"
                    checked={!choices.switchedOff.includes(option.id)}
                    onChange={(event) =>
                      onChoices({
                        switchedOff: event.target.checked
                          ? choices.switchedOff.filter((id) => id !== option.id)
                          : [...choices.switchedOff, option.id],
                      })
                    }
                  />
                  {option.label}
                </label>
              ))
          : null}
        {readFolder ? null : (
          <label className="option option-check">
            <input
              type="checkbox"
              checked={choices.keepFiles}
              onChange={(event) => onChoices({ keepFiles: event.target.checked })}
            />
            Keep the test files
          </label>
        )}
        {canVerify(plan) ? (
          <label
            className="option option-check"
            title="Reads every file back and checks each 4 KiB block is the one written there: catches fake-capacity and failing drives."
          >
            <input
              type="checkbox"
              checked={choices.verify}
              onChange={(event) => onChoices({ verify: event.target.checked })}
            />
            Verify every byte afterwards
          </label>
        ) : null}
        <label className="option option-check">
          <input
            type="checkbox"
            checked={choices.buffered}
            onChange={(event) => onChoices({ buffered: event.target.checked })}
          />
          Through the system cache (buffered)
        </label>
        <span className="options-spacer" />
        <div className="plan-file-actions">
          <button
            type="button"
            className="button button-small"
            onClick={() => importRef.current?.click()}
          >
            Import plan…
          </button>
          <input
            ref={importRef}
            type="file"
            accept="application/json,.json"
            className="visually-hidden"
            tabIndex={-1}
            aria-label="Plan file to import"
            onChange={(event) => void importPlan(event)}
          />
          <button
            type="button"
            className="button button-small"
            disabled={!plan}
            onClick={() =>
              plan &&
              saveTextFile(`${plan.name}.plumb-plan.json`, planFileText(plan), 'application/json')
            }
          >
            Export plan
          </button>
        </div>
      </div>
      {readFolder ? null : (
        <ReserveOption
          volumeBytes={volumeBytes}
          text={choices.reserveText}
          onText={(reserveText) => onChoices({ reserveText })}
          invalid={reserveInvalid}
        />
      )}
      {totalInvalid ? <p className="inline-error">Type a size such as 200 GB or 512MB.</p> : null}
      {needsSecond ? (
        <p className="muted option-hint">
          The two-disk test needs a second folder, on the other disk: A is where to test above.
        </p>
      ) : null}
    </>
  );
}
