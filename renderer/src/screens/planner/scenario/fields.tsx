/**
 * The planner form's building blocks: a labelled field, and numbers typed in it. A number out of
 * range is never changed behind the user's back: the field keeps what was typed, says what it
 * takes, and the scenario keeps its last good value until the field is right again.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { fromGb, toGb } from '../../../../../app/common/units.js';

interface FieldProps {
  label: string;
  hint?: string | undefined;
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

export interface NumberRule {
  min: number;
  max?: number | undefined;
  /** Whole numbers only (years, repeats). */
  whole?: boolean | undefined;
  /** The unit the rule's words use ("GB", "s"); none for counts. */
  unit?: string | undefined;
  /** Empty is allowed and means "not given" (a price left to the catalogue). */
  optional?: boolean | undefined;
}

/** What is wrong with a typed number under `rule`, in words; null when it is right. */
export function numberProblem(text: string, rule: NumberRule): string | null {
  const unit = rule.unit ? ` ${rule.unit}` : '';
  const kind = rule.whole ? 'a whole number' : 'a number';
  // "Enter a whole number from 1 to 10.", "Enter 0 GB or more.", "Enter a whole number, 1 or more."
  const words =
    rule.max !== undefined
      ? `Enter ${kind} from ${rule.min} to ${rule.max}${unit}.`
      : rule.whole
        ? `Enter ${kind}, ${rule.min} or more.`
        : `Enter ${rule.min}${unit} or more.`;
  const value = Number(text);
  if (rule.optional && text.trim() === '') return null;
  const wrong =
    text.trim() === '' ||
    !Number.isFinite(value) ||
    (rule.whole && !Number.isInteger(value)) ||
    value < rule.min ||
    (rule.max !== undefined && value > rule.max);
  return wrong ? words : null;
}

/**
 * A number input that keeps what the user typed. `value` is the scenario's; `onChange` gets a new
 * value only when the text follows `rule`, else the field is marked invalid and says why.
 */
export function NumberInput<Value extends number | undefined = number>({
  id,
  value,
  onChange,
  rule,
  disabled,
  invalid,
  className,
  placeholder,
}: {
  id: string;
  value: Value;
  onChange: (value: Value) => void;
  rule: NumberRule;
  disabled?: boolean | undefined;
  /** Marked invalid from outside (a price the planner needs). */
  invalid?: boolean | undefined;
  className?: string | undefined;
  placeholder?: string | undefined;
}) {
  const shown = (v: number | undefined) => (v === undefined ? '' : String(v));
  const parse = (typed: string) => (typed.trim() === '' ? undefined : Number(typed)) as Value;
  const [text, setText] = useState(shown(value));
  const problem = numberProblem(text, rule);
  // A value set from elsewhere (a scenario opened, an option added) replaces what was typed.
  useEffect(() => {
    setText((typed) =>
      numberProblem(typed, rule) === null && parse(typed) === value ? typed : shown(value),
    );
    // The rule is fixed per field; only the value comes from outside.
  }, [value]);
  const errorId = `${id}-problem`;
  const input = (
    <input
      id={id}
      type="number"
      inputMode="decimal"
      min={rule.min}
      max={rule.max}
      step={rule.whole ? 1 : 'any'}
      value={text}
      disabled={disabled}
      className={className}
      placeholder={placeholder}
      aria-invalid={problem || invalid ? true : undefined}
      aria-describedby={problem ? errorId : undefined}
      onChange={(event) => {
        setText(event.target.value);
        if (numberProblem(event.target.value, rule) === null) {
          onChange(parse(event.target.value));
        }
      }}
    />
  );
  return (
    <>
      {rule.unit ? (
        <span className="plan-unit-input">
          {input}
          <span aria-hidden="true">{rule.unit}</span>
        </span>
      ) : (
        input
      )}
      {problem ? (
        <span id={errorId} className="plan-field-problem" role="alert">
          {problem}
        </span>
      ) : null}
    </>
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
    <NumberInput
      id={id}
      value={toGb(bytes)}
      rule={{ min, unit: 'GB' }}
      onChange={(gb) => onChange(fromGb(gb))}
    />
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
