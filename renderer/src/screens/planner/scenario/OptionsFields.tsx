/** "Options to compare": each option's internal disk and external SSD, and the submit button. */
import type { Catalogue, DeviceProfile, Scenario } from '../../../../../app/contract/planner.js';
import { formatSize, formatUsd } from '../../../../../app/common/format.js';
import { Field, GbInput } from './fields.js';

type Option = Scenario['options'][number];
type PriceTier = Catalogue['internalPriceTiers'][number];
type DeviceGroup = { label: string; devices: DeviceProfile[] };

export function OptionsFields({
  options,
  setOptions,
  tier,
  groups,
  busy,
}: {
  options: Scenario['options'];
  setOptions: (options: Scenario['options']) => void;
  /** The internal upgrade prices for this computer, if it has any. */
  tier: PriceTier | undefined;
  /** The external SSDs to choose from, by where they come from. */
  groups: DeviceGroup[];
  busy: boolean;
}) {
  const externals = groups.flatMap((g) => g.devices);
  const deviceById = new Map(externals.map((d) => [d.id, d]));
  const updateOption = (index: number, patch: Partial<Option>) =>
    setOptions(options.map((o, i) => (i === index ? { ...o, ...patch } : o)));
  return (
    <fieldset className="plan-fieldset plan-options-fieldset">
      <legend>Options to compare</legend>
      {options.map((option, index) => (
        <OptionRow
          key={index}
          index={index}
          option={option}
          tier={tier}
          groups={groups}
          device={option.external ? deviceById.get(option.external.device) : undefined}
          removable={options.length > 1}
          onChange={(patch) => updateOption(index, patch)}
          onRemove={() => setOptions(options.filter((_, i) => i !== index))}
        />
      ))}
      <div className="plan-actions">
        <button
          type="button"
          className="button plan-add"
          disabled={options.length >= 6}
          onClick={() =>
            setOptions([
              ...options,
              {
                internalCapacity: tier?.steps[0]?.capacityBytes ?? 1e12,
                // Without Apple's price tiers (a PC), the new option keeps today's disk.
                ...(tier ? {} : { internalUpgradeUsd: 0 }),
                external: { device: externals[0]?.id ?? 'tb5-2tb' },
              },
            ])
          }
        >
          Add an option
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Comparing…' : 'Compare options'}
        </button>
      </div>
    </fieldset>
  );
}

function OptionRow({
  index,
  option,
  tier,
  groups,
  device,
  removable,
  onChange,
  onRemove,
}: {
  index: number;
  option: Option;
  tier: PriceTier | undefined;
  groups: DeviceGroup[];
  /** The external SSD chosen, if any. */
  device: DeviceProfile | undefined;
  removable: boolean;
  onChange: (patch: Partial<Option>) => void;
  onRemove: () => void;
}) {
  return (
    <div className="plan-option-row">
      <Field label={`Option ${index + 1}`}>
        {(id) => (
          <input
            id={id}
            type="text"
            maxLength={80}
            value={option.name ?? ''}
            placeholder="Name it"
            onChange={(e) => onChange({ name: e.target.value || undefined })}
          />
        )}
      </Field>
      <Field label="Internal SSD" hint={tier ? undefined : 'No upgrade prices here: kept as it is'}>
        {(id) =>
          tier && option.internalUpgradeUsd === undefined ? (
            <select
              id={id}
              value={option.internalCapacity}
              onChange={(e) => onChange({ internalCapacity: Number(e.target.value) })}
            >
              {tier.steps.map((step) => (
                <option key={step.capacityBytes} value={step.capacityBytes}>
                  {formatSize(step.capacityBytes)} (+{formatUsd(step.upgradeUsd.value)})
                </option>
              ))}
            </select>
          ) : (
            <GbInput
              id={id}
              min={1}
              bytes={option.internalCapacity}
              onChange={(b) => onChange({ internalCapacity: Math.max(b, 1e9) })}
            />
          )
        }
      </Field>
      <Field label="External SSD">
        {(id) => (
          <select
            id={id}
            value={option.external?.device ?? ''}
            onChange={(e) =>
              onChange({ external: e.target.value ? { device: e.target.value } : undefined })
            }
          >
            <option value="">None: internal only</option>
            {groups.map((group) => (
              <optgroup key={group.label} label={group.label}>
                {group.devices.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                    {d.origin === 'measured' ? ' (measured)' : ''}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        )}
      </Field>
      <Field label="External price (USD)">
        {(id) => (
          <input
            id={id}
            type="number"
            min={0}
            disabled={!option.external}
            placeholder={device?.priceUsd !== null && device ? String(device.priceUsd) : 'required'}
            value={option.external?.priceUsd ?? ''}
            onChange={(e) =>
              option.external &&
              onChange({
                external: {
                  ...option.external,
                  priceUsd: e.target.value === '' ? undefined : Math.max(0, Number(e.target.value)),
                },
              })
            }
          />
        )}
      </Field>
      <button
        type="button"
        className="button plan-remove"
        aria-label={`Remove option ${index + 1}`}
        disabled={!removable}
        onClick={onRemove}
      >
        Remove
      </button>
    </div>
  );
}
