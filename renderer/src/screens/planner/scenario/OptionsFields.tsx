/** "Options to compare": each option's internal disk and external SSD, and the submit button. */
import type {
  Catalogue,
  DeviceProfile,
  MissingPrice,
  Scenario,
} from '../../../../../app/contract/planner.js';
import { formatSize, formatUsd } from '../../../../../app/common/format.js';
import {
  optionNameMaxLength,
  renamedForDisks,
  type NamedOption,
} from '../../../../../app/common/option-name.js';
import { Field, GbInput, NumberInput } from './fields.js';

type Option = Scenario['options'][number];
type PriceTier = Catalogue['internalPriceTiers'][number];
type DeviceGroup = { label: string; devices: DeviceProfile[] };

export function OptionsFields({
  options,
  setOptions,
  tier,
  groups,
  internals,
  missing,
  busy,
}: {
  options: Scenario['options'];
  setOptions: (options: Scenario['options']) => void;
  /** The internal upgrade prices for this computer, if it has any. */
  tier: PriceTier | undefined;
  /** The external SSDs to choose from, by where they come from. */
  groups: DeviceGroup[];
  /** SSDs that can be the internal disk: the user's own to fit, and disks Plumb measured inside. */
  internals: DeviceGroup[];
  /** Prices the last evaluation did not know, by scenario path ("options.1.internalUpgradeUsd"). */
  missing: readonly MissingPrice[];
  busy: boolean;
}) {
  const externals = groups.flatMap((g) => g.devices);
  const deviceById = new Map(externals.map((d) => [d.id, d]));
  const disks = (o: Option): NamedOption => ({
    internalCapacity: o.internalCapacity,
    external: o.external ? deviceById.get(o.external.device) : undefined,
  });
  // A name Plumb gave follows the disks ("512 GB + TB5 SSD" becomes "512 GB + USB4 SSD").
  const updateOption = (index: number, patch: Partial<Option>) =>
    setOptions(
      options.map((o, i) => {
        if (i !== index) return o;
        const next = { ...o, ...patch };
        return 'name' in patch
          ? next
          : { ...next, name: renamedForDisks(o.name, disks(o), disks(next)) };
      }),
    );
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
          internals={internals}
          missing={missing.filter((m) => m.path.startsWith(`options.${index}.`))}
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
                // Without a price list (a PC) the new option's internal price is asked for.
                internalCapacity: tier?.steps[0]?.capacityBytes ?? options[0]!.internalCapacity,
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
  internals,
  missing,
  device,
  removable,
  onChange,
  onRemove,
}: {
  index: number;
  option: Option;
  tier: PriceTier | undefined;
  groups: DeviceGroup[];
  internals: DeviceGroup[];
  missing: readonly MissingPrice[];
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
            maxLength={optionNameMaxLength}
            value={option.name ?? ''}
            placeholder="Name it"
            onChange={(e) => onChange({ name: e.target.value || undefined })}
          />
        )}
      </Field>
      <Field label="Internal SSD">
        {(id) => (
          <select
            id={id}
            value={option.internalDevice ?? ''}
            onChange={(e) => {
              const chosen = internals
                .flatMap((g) => g.devices)
                .find((d) => d.id === e.target.value);
              // An SSD of your own comes at its capacity, priced at what you paid or would pay.
              onChange(
                chosen
                  ? {
                      internalDevice: chosen.id,
                      internalCapacity: chosen.capacityBytes,
                      internalUpgradeUsd: undefined,
                    }
                  : { internalDevice: undefined },
              );
            }}
          >
            <option value="">{tier ? 'As sold' : 'Typical'}</option>
            {internals.map((group) => (
              <optgroup key={group.label} label={group.label}>
                {group.devices.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        )}
      </Field>
      <Field label="Internal capacity">
        {(id) =>
          tier && option.internalUpgradeUsd === undefined && !option.internalDevice ? (
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
              onChange={(internalCapacity) => onChange({ internalCapacity })}
            />
          )
        }
      </Field>
      <PriceField
        label="Internal price (USD)"
        missing={missing.find((m) => m.disk === 'internal')}
        hint="The upgrade, or the SSD you would fit; 0 only to keep the disk it has"
        value={option.internalUpgradeUsd}
        onChange={(usd) => onChange({ internalUpgradeUsd: usd })}
      />
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
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        )}
      </Field>
      <PriceField
        label="External price (USD)"
        missing={missing.find((m) => m.disk === 'external')}
        disabled={!option.external}
        fallback={
          device?.priceUsd === undefined || device.priceUsd === null
            ? undefined
            : device.origin === 'measured'
              ? 'you own it, $0'
              : `the catalogue's ${formatUsd(device.priceUsd)}`
        }
        value={option.external?.priceUsd}
        onChange={(usd) =>
          option.external && onChange({ external: { ...option.external, priceUsd: usd } })
        }
      />
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

/**
 * A price in dollars; empty means "not given" (the catalogue's price, said beside the field, is used
 * then), and a price the planner needs says so.
 */
function PriceField({
  label,
  missing,
  hint,
  fallback,
  disabled = false,
  value,
  onChange,
}: {
  label: string;
  missing: MissingPrice | undefined;
  hint?: string;
  /** What an empty field stands for, in words ("the catalogue's $129"). */
  fallback?: string | undefined;
  disabled?: boolean;
  value: number | undefined;
  onChange: (usd: number | undefined) => void;
}) {
  const words = missing
    ? 'Needed: Plumb does not know this price'
    : fallback && value === undefined && !disabled
      ? `Empty: ${fallback} is used`
      : hint;
  return (
    <Field label={label} hint={words}>
      {(id) => (
        <NumberInput<number | undefined>
          id={id}
          disabled={disabled}
          invalid={missing !== undefined}
          className={missing ? 'plan-price-needed' : undefined}
          placeholder={missing ? 'required' : undefined}
          rule={{ min: 0, optional: true }}
          value={value}
          onChange={onChange}
        />
      )}
    </Field>
  );
}
