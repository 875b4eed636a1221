/** The planner form's building blocks: a labelled field and a size typed in GB. */
import { useId, type ReactNode } from 'react';
import { fromGb, toGb } from '../../../../../app/common/units.js';

interface FieldProps {
  label: string;
  hint?: string;
  children: (id: string) => ReactNode;
}

export function Field({ label, hint, children }: FieldProps) {
  const id = useId();
  return (
    <div className="plan-field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {hint ? <span className="plan-hint">{hint}</span> : null}
    </div>
  );
}

export function GbInput({
  id,
  bytes,
  onChange,
  min = 0,
}: {
  id: string;
  bytes: number;
  onChange: (bytes: number) => void;
  min?: number;
}) {
  return (
    <span className="plan-unit-input">
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={min}
        step="any"
        value={toGb(bytes)}
        // Below `min` (a stray minus sign) reads as `min`: the planner takes no negative sizes.
        onChange={(event) => onChange(fromGb(Math.max(min, Number(event.target.value) || 0)))}
      />
      <span aria-hidden="true">GB</span>
    </span>
  );
}

/** A labelled size in GB: the field most of the form is made of. */
export function GbField({
  label,
  hint,
  bytes,
  onChange,
  min,
}: {
  label: string;
  hint?: string;
  bytes: number;
  onChange: (bytes: number) => void;
  min?: number;
}) {
  return (
    <Field label={label} hint={hint}>
      {(id) => <GbInput id={id} min={min} bytes={bytes} onChange={onChange} />}
    </Field>
  );
}

/** A whole number typed in a field, held between `min` and `max` (empty or junk reads as `min`). */
export function clampWhole(text: string, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(Number(text) || min)));
}
