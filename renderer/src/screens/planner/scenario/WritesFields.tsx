/** "Your writes": the bursts written in a row, and the daily writes to each kind of data. */
import type { Scenario } from '../../../../../app/contract/planner.js';
import { Field, GbField, GbInput, NumberInput } from './fields.js';

type Workload = Scenario['workload'];
type Burst = Workload['bursts'][number];

export function WritesFields({
  workload,
  setWorkload,
}: {
  workload: Workload;
  setWorkload: (patch: Partial<Workload>) => void;
}) {
  const updateBurst = (index: number, patch: Partial<Burst>) =>
    setWorkload({ bursts: workload.bursts.map((b, i) => (i === index ? { ...b, ...patch } : b)) });
  return (
    <fieldset className="plan-fieldset">
      <legend>Your writes</legend>
      {workload.bursts.map((burst, index) => (
        <BurstRow
          key={index}
          index={index}
          burst={burst}
          removable={workload.bursts.length > 1}
          onChange={(patch) => updateBurst(index, patch)}
          onRemove={() => setWorkload({ bursts: workload.bursts.filter((_, i) => i !== index) })}
        />
      ))}
      <button
        type="button"
        className="button plan-add"
        disabled={workload.bursts.length >= 12}
        onClick={() =>
          setWorkload({
            bursts: [
              ...workload.bursts,
              { name: 'Copy a project', size: 50e9, target: 'movable', repeat: 1, gapSeconds: 0 },
            ],
          })
        }
      >
        Add a burst
      </button>
      <div className="plan-row">
        <GbField
          label="Daily writes, data that stays internal"
          bytes={workload.dailyWritesInternal}
          onChange={(b) => setWorkload({ dailyWritesInternal: b })}
        />
        <GbField
          label="Daily writes, data that can move out"
          bytes={workload.dailyWritesMovable}
          onChange={(b) => setWorkload({ dailyWritesMovable: b })}
        />
      </div>
    </fieldset>
  );
}

function BurstRow({
  index,
  burst,
  removable,
  onChange,
  onRemove,
}: {
  index: number;
  burst: Burst;
  removable: boolean;
  onChange: (patch: Partial<Burst>) => void;
  onRemove: () => void;
}) {
  return (
    <div className="plan-burst">
      <Field label={`Burst ${index + 1}`}>
        {(id) => (
          <input
            id={id}
            type="text"
            value={burst.name}
            maxLength={120}
            onChange={(e) => onChange({ name: e.target.value })}
          />
        )}
      </Field>
      <Field label="Size">
        {(id) => (
          <GbInput id={id} min={1} bytes={burst.size} onChange={(size) => onChange({ size })} />
        )}
      </Field>
      <Field label="Times in a row">
        {(id) => (
          <NumberInput
            id={id}
            value={burst.repeat}
            rule={{ min: 1, max: 100, whole: true }}
            onChange={(repeat) => onChange({ repeat })}
          />
        )}
      </Field>
      <Field label="Pause between">
        {(id) => (
          <NumberInput
            id={id}
            value={burst.gapSeconds}
            rule={{ min: 0, unit: 's' }}
            onChange={(gapSeconds) => onChange({ gapSeconds })}
          />
        )}
      </Field>
      <button
        type="button"
        className="button plan-remove"
        aria-label={`Remove burst ${index + 1}`}
        disabled={!removable}
        onClick={onRemove}
      >
        Remove
      </button>
    </div>
  );
}
