/**
 * The user's own SSDs: add one from a review or a datasheet, edit it, delete it. Plumb keeps them
 * in its data folder (planner.devices.*), offers them as external SSDs for every option (or as the
 * internal SSD, for one the user would fit inside), and lists
 * each figure as the user's own among the sources.
 */
import { useId, useState, type FormEvent } from 'react';
import type { DeviceProfile } from '../../../../app/contract/planner.js';
import {
  cacheKinds,
  deviceFromDraft,
  draftFromDevice,
  emptyDraft,
  ownInterfaces,
  type DeviceDraft,
  type DraftErrors,
  type DraftField,
} from './device-form.js';
import {
  formatGbPerSecond,
  formatSeconds,
  formatSize,
  formatUsd,
} from '../../../../app/common/format.js';

export interface MyDevicesProps {
  devices: readonly DeviceProfile[];
  /** Saves (adds or replaces) a device; rejects with a sentence to show. */
  onSave: (device: DeviceProfile) => Promise<void>;
  onDelete: (device: DeviceProfile) => Promise<void>;
  /** Adds an option that uses the device (inside or outside); null when no option can be added. */
  onUse: ((device: DeviceProfile) => void) | null;
  /** A sentence about the last change, read out politely. */
  status: string | null;
}

function summary(device: DeviceProfile): string {
  const link = ownInterfaces.find((i) => i.value === device.interface)?.label;
  const parts = [
    formatSize(device.capacityBytes),
    link ?? device.interface,
    device.priceUsd === null ? 'no price' : formatUsd(device.priceUsd),
  ];
  const write = formatGbPerSecond(device.writeBytesPerSecond);
  if (device.cacheKind !== 'none' && device.cacheBytes !== null) {
    parts.push(
      `writes ${write} for ${formatSize(device.cacheBytes)}${device.afterCacheWriteBytesPerSecond === null ? '' : `, then ${formatGbPerSecond(device.afterCacheWriteBytesPerSecond)}`}`,
    );
  } else {
    parts.push(`writes ${write}`);
  }
  if (device.cacheRecoverySeconds !== null)
    parts.push(`recovers in ${formatSeconds(device.cacheRecoverySeconds)}`);
  if (device.tbwBytes !== null) parts.push(`${Number((device.tbwBytes / 1e12).toFixed(1))} TBW`);
  return parts.join(' · ');
}

interface TextFieldProps {
  field: DraftField;
  label: string;
  hint: string;
  draft: DeviceDraft;
  errors: DraftErrors;
  disabled?: boolean;
  onChange: (field: DraftField, text: string) => void;
}

function TextField({ field, label, hint, draft, errors, disabled, onChange }: TextFieldProps) {
  const id = useId();
  const error = disabled ? undefined : errors[field];
  return (
    <div className={`plan-field${error ? ' plan-field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        autoComplete="off"
        spellCheck={false}
        value={draft[field]}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-note`}
        onChange={(event) => onChange(field, event.target.value)}
      />
      <span id={`${id}-note`} className={error ? 'plan-field-error' : 'plan-hint'}>
        {error ?? hint}
      </span>
    </div>
  );
}

function DeviceEditor({
  initial,
  onSave,
  onCancel,
}: {
  initial: DeviceDraft;
  onSave: (device: DeviceProfile) => Promise<void>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [checked, setChecked] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const interfaceId = useId();
  const cacheKindId = useId();
  const titleId = useId();

  const update = (next: DeviceDraft) => {
    setDraft(next);
    // Once the user has tried to save, messages follow what they type.
    if (checked) {
      const result = deviceFromDraft(next);
      setErrors(result.ok ? {} : result.errors);
    }
  };
  const change = (field: DraftField, text: string) => update({ ...draft, [field]: text });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    const result = deviceFromDraft(draft);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    setFailure(null);
    try {
      await onSave(result.device);
    } catch (caught) {
      setFailure((caught as Error).message);
    } finally {
      setSaving(false);
    }
  };
  const count = Object.keys(errors).length;
  const noCache = draft.cacheKind === 'none';
  const common = { draft, errors, onChange: change };

  return (
    <form className="plan-device-editor" onSubmit={submit} aria-labelledby={titleId} noValidate>
      <h3 id={titleId}>{initial.id ? `Edit ${initial.name}` : 'Add an SSD of your own'}</h3>
      {count > 0 ? (
        <p className="plan-field-error" role="alert">
          {count === 1 ? 'One field needs' : `${count} fields need`} a change before saving.
        </p>
      ) : null}
      {failure ? (
        <div className="banner banner-error" role="alert">
          {failure}
        </div>
      ) : null}
      <div className="plan-device-fields">
        <TextField field="name" label="Name" hint="As you will recognise it" {...common} />
        <TextField field="capacity" label="Capacity" hint='e.g. "2 TB"' {...common} />
        <TextField
          field="price"
          label="Price (USD)"
          hint='e.g. "179"; 0 if you own it'
          {...common}
        />
        <div className="plan-field">
          <label htmlFor={interfaceId}>Interface</label>
          <select
            id={interfaceId}
            value={draft.interface}
            onChange={(e) =>
              update({ ...draft, interface: e.target.value as DeviceDraft['interface'] })
            }
          >
            {ownInterfaces.map((i) => (
              <option key={i.value} value={i.value}>
                {i.label}
              </option>
            ))}
          </select>
        </div>
        <TextField field="read" label="Read rate" hint='Optional, e.g. "6 GB/s"' {...common} />
        <TextField
          field="write"
          label="Write rate in the cache"
          hint='e.g. "5.5 GB/s"'
          {...common}
        />
        <div className="plan-field plan-field-wide">
          <label htmlFor={cacheKindId}>Write cache</label>
          <select
            id={cacheKindId}
            value={draft.cacheKind}
            onChange={(e) =>
              update({ ...draft, cacheKind: e.target.value as DeviceDraft['cacheKind'] })
            }
          >
            {cacheKinds.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        <TextField
          field="cache"
          label="Cache size (empty disk)"
          hint='e.g. "50 GB"'
          disabled={noCache}
          {...common}
        />
        <TextField
          field="afterCacheWrite"
          label="Write rate after the cache"
          hint='e.g. "1.4 GB/s"'
          disabled={noCache}
          {...common}
        />
        <TextField
          field="recovery"
          label="Cache recovery time"
          hint='Optional, e.g. "2 min"'
          disabled={noCache}
          {...common}
        />
        <TextField field="tbw" label="Endurance" hint='Optional, e.g. "1200 TBW"' {...common} />
      </div>
      <div className="plan-actions">
        <button type="button" className="button" onClick={onCancel} disabled={saving}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : initial.id ? 'Save changes' : 'Save this SSD'}
        </button>
      </div>
    </form>
  );
}

export function MyDevices({ devices, onSave, onDelete, onUse, status }: MyDevicesProps) {
  const [editing, setEditing] = useState<DeviceDraft | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const titleId = useId();

  const remove = async (device: DeviceProfile) => {
    setFailure(null);
    try {
      await onDelete(device);
      if (editing?.id === device.id) setEditing(null);
    } catch (caught) {
      setFailure((caught as Error).message);
    }
  };

  return (
    <section className="plan-my-devices" aria-labelledby={titleId}>
      <div className="plan-my-devices-head">
        <h2 id={titleId}>Your own SSDs</h2>
        {editing ? null : (
          <button
            type="button"
            className="button plan-add"
            disabled={devices.length >= 20}
            onClick={() => setEditing(emptyDraft)}
          >
            Add an SSD
          </button>
        )}
      </div>
      <p className="muted plan-my-devices-lede">
        An SSD from a review or a datasheet: Plumb keeps it on this computer, offers it as the
        external SSD of any option (or, one you would fit inside, as its internal SSD, at its
        price), and lists its figures as yours.
      </p>
      <p className="visually-hidden" role="status">
        {status ?? ''}
      </p>
      {failure ? (
        <div className="banner banner-error" role="alert">
          {failure}
        </div>
      ) : null}
      {devices.length > 0 ? (
        <ul className="plan-device-list" aria-label="Your SSDs">
          {devices.map((device) => (
            <li key={device.id} className="plan-device-item">
              <div className="plan-device-text">
                <span className="plan-device-name">{device.name}</span>
                <span className="plan-device-summary muted">{summary(device)}</span>
              </div>
              <div className="plan-device-buttons">
                {onUse ? (
                  <button
                    type="button"
                    className="button"
                    aria-label={`Compare ${device.name} as a new option`}
                    onClick={() => onUse(device)}
                  >
                    Compare
                  </button>
                ) : null}
                <button
                  type="button"
                  className="button"
                  aria-label={`Edit ${device.name}`}
                  onClick={() => setEditing(draftFromDevice(device))}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="button plan-remove"
                  aria-label={`Delete ${device.name}`}
                  onClick={() => void remove(device)}
                >
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : editing ? null : (
        <p className="muted">None yet.</p>
      )}
      {editing ? (
        <DeviceEditor
          key={editing.id ?? 'new'}
          initial={editing}
          onCancel={() => setEditing(null)}
          onSave={async (device) => {
            await onSave(device);
            setEditing(null);
          }}
        />
      ) : null}
    </section>
  );
}
