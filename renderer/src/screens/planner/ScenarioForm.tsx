import { useId, type FormEvent, type ReactNode } from 'react';
import type {
  Catalogue,
  DeviceProfile,
  HostKind,
  PortKind,
  Scenario,
} from '../../../../app/contract/planner.js';
import { formatSize, formatUsd } from '../../../../app/common/format.js';
import { fromGb, toGb } from '../../../../app/common/units.js';

export const hostKinds: { value: HostKind; label: string }[] = [
  { value: 'apple-silicon', label: 'Apple silicon Mac' },
  { value: 'intel-mac', label: 'Intel Mac' },
  { value: 'windows-pc', label: 'Windows PC' },
];

export const ports: { value: PortKind; label: string; intel: boolean }[] = [
  { value: 'tb5', label: 'Thunderbolt 5', intel: false },
  { value: 'tb4-usb4', label: 'Thunderbolt 4 / USB4', intel: false },
  { value: 'tb3', label: 'Thunderbolt 3', intel: true },
  { value: 'usb32g2x2', label: 'USB 3.2 Gen 2x2', intel: true },
  { value: 'usb32g2', label: 'USB 3.2 Gen 2', intel: true },
];

interface FieldProps {
  label: string;
  hint?: string;
  children: (id: string) => ReactNode;
}

function Field({ label, hint, children }: FieldProps) {
  const id = useId();
  return (
    <div className="plan-field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {hint ? <span className="plan-hint">{hint}</span> : null}
    </div>
  );
}

function GbInput({
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
        onChange={(event) => onChange(fromGb(Number(event.target.value) || 0))}
      />
      <span aria-hidden="true">GB</span>
    </span>
  );
}

export interface ScenarioFormProps {
  scenario: Scenario;
  catalogue: Catalogue;
  measured: readonly DeviceProfile[];
  /** The user's own SSDs, saved in Plumb's data folder. */
  own: readonly DeviceProfile[];
  busy: boolean;
  onChange: (scenario: Scenario) => void;
  onSubmit: () => void;
}

export function ScenarioForm({
  scenario,
  catalogue,
  measured,
  own,
  busy,
  onChange,
  onSubmit,
}: ScenarioFormProps) {
  const set = (patch: Partial<Scenario>) => onChange({ ...scenario, ...patch });
  const tierFor = (host: Scenario['host']) =>
    catalogue.internalPriceTiers.find((t) =>
      host.priceTier ? t.id === host.priceTier : t.hostKinds.includes(host.kind),
    );
  const setHost = (patch: Partial<Scenario['host']>) => {
    const host = { ...scenario.host, ...patch };
    // Intel Macs stop at Thunderbolt 3: keep the port valid when the kind changes.
    if (host.kind === 'intel-mac' && (host.port === 'tb5' || host.port === 'tb4-usb4')) {
      host.port = 'tb3';
    }
    if (host.kind !== scenario.host.kind) host.priceTier = undefined;
    const nextTier = tierFor(host);
    // Without upgrade prices (Intel Mac, PC) an option keeps the disk it has; with them, an
    // option takes the nearest capacity the price list has.
    const options = scenario.options.map((option) => {
      if (!nextTier) return { ...option, internalUpgradeUsd: option.internalUpgradeUsd ?? 0 };
      const nearest = [...nextTier.steps].sort(
        (a, b) =>
          Math.abs(a.capacityBytes - option.internalCapacity) -
          Math.abs(b.capacityBytes - option.internalCapacity),
      )[0]!;
      return { ...option, internalCapacity: nearest.capacityBytes, internalUpgradeUsd: undefined };
    });
    set({ host, options });
  };
  const setData = (patch: Partial<Scenario['data']>) =>
    set({ data: { ...scenario.data, ...patch } });
  const setWorkload = (patch: Partial<Scenario['workload']>) =>
    set({ workload: { ...scenario.workload, ...patch } });

  const tier = tierFor(scenario.host);
  const groups = [
    { label: 'Your own SSDs', devices: own.filter((d) => d.placement === 'external') },
    { label: 'Measured by Plumb', devices: measured.filter((d) => d.placement === 'external') },
    { label: 'Catalogue', devices: catalogue.devices.filter((d) => d.placement === 'external') },
  ].filter((g) => g.devices.length > 0);
  const externals = groups.flatMap((g) => g.devices);
  const deviceById = new Map(externals.map((d) => [d.id, d]));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  const updateOption = (index: number, patch: Partial<Scenario['options'][number]>) =>
    set({ options: scenario.options.map((o, i) => (i === index ? { ...o, ...patch } : o)) });
  const updateBurst = (index: number, patch: Partial<Scenario['workload']['bursts'][number]>) =>
    setWorkload({
      bursts: scenario.workload.bursts.map((b, i) => (i === index ? { ...b, ...patch } : b)),
    });

  return (
    <form className="plan-form" onSubmit={submit} aria-label="Your situation">
      <fieldset className="plan-fieldset">
        <legend>Your computer</legend>
        <Field label="Computer">
          {(id) => (
            <select
              id={id}
              value={scenario.host.kind}
              onChange={(e) => setHost({ kind: e.target.value as HostKind })}
            >
              {hostKinds.map((k) => (
                <option key={k.value} value={k.value}>
                  {k.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Fastest port for the external disk">
          {(id) => (
            <select
              id={id}
              value={scenario.host.port}
              onChange={(e) => setHost({ port: e.target.value as PortKind })}
            >
              {ports
                .filter((p) => scenario.host.kind !== 'intel-mac' || p.intel)
                .map((p) => (
                  <option key={p.value} value={p.value}>
                    {p.label}
                  </option>
                ))}
            </select>
          )}
        </Field>
        <div className="plan-field plan-check">
          <input
            id="plan-dock"
            type="checkbox"
            checked={scenario.host.throughDock}
            onChange={(e) => setHost({ throughDock: e.target.checked })}
          />
          <label htmlFor="plan-dock">Through a dock or hub</label>
        </div>
        <Field label="Years to plan for">
          {(id) => (
            <input
              id={id}
              type="number"
              min={1}
              max={10}
              value={scenario.horizonYears}
              onChange={(e) =>
                set({
                  horizonYears: Math.min(10, Math.max(1, Math.round(Number(e.target.value) || 1))),
                })
              }
            />
          )}
        </Field>
        <Field label="What matters most">
          {(id) => (
            <select
              id={id}
              value={scenario.prefer}
              onChange={(e) => set({ prefer: e.target.value as Scenario['prefer'] })}
            >
              <option value="cost">Lowest cost</option>
              <option value="speed">Fastest</option>
            </select>
          )}
        </Field>
      </fieldset>

      <fieldset className="plan-fieldset">
        <legend>Your data</legend>
        <Field label="Must stay internal" hint="System, apps, home folder">
          {(id) => (
            <GbInput
              id={id}
              bytes={scenario.data.keepInternal}
              onChange={(b) => setData({ keepInternal: b })}
            />
          )}
        </Field>
        <Field label="Could move out" hint="Media libraries, projects">
          {(id) => (
            <GbInput
              id={id}
              bytes={scenario.data.movable}
              onChange={(b) => setData({ movable: b })}
            />
          )}
        </Field>
        <Field label="Internal growth a year">
          {(id) => (
            <GbInput
              id={id}
              bytes={scenario.data.internalGrowthPerYear}
              onChange={(b) => setData({ internalGrowthPerYear: b })}
            />
          )}
        </Field>
        <Field label="Movable growth a year">
          {(id) => (
            <GbInput
              id={id}
              bytes={scenario.data.movableGrowthPerYear}
              onChange={(b) => setData({ movableGrowthPerYear: b })}
            />
          )}
        </Field>
      </fieldset>

      <fieldset className="plan-fieldset">
        <legend>Your writes</legend>
        {scenario.workload.bursts.map((burst, index) => (
          <div className="plan-burst" key={index}>
            <Field label={`Burst ${index + 1}`}>
              {(id) => (
                <input
                  id={id}
                  type="text"
                  value={burst.name}
                  maxLength={120}
                  onChange={(e) => updateBurst(index, { name: e.target.value })}
                />
              )}
            </Field>
            <Field label="Size">
              {(id) => (
                <GbInput
                  id={id}
                  min={1}
                  bytes={burst.size}
                  onChange={(b) => updateBurst(index, { size: Math.max(b, 1e9) })}
                />
              )}
            </Field>
            <Field label="Times in a row">
              {(id) => (
                <input
                  id={id}
                  type="number"
                  min={1}
                  max={100}
                  value={burst.repeat}
                  onChange={(e) =>
                    updateBurst(index, {
                      repeat: Math.min(100, Math.max(1, Math.round(Number(e.target.value) || 1))),
                    })
                  }
                />
              )}
            </Field>
            <Field label="Pause between (s)">
              {(id) => (
                <input
                  id={id}
                  type="number"
                  min={0}
                  value={burst.gapSeconds}
                  onChange={(e) =>
                    updateBurst(index, { gapSeconds: Math.max(0, Number(e.target.value) || 0) })
                  }
                />
              )}
            </Field>
            <button
              type="button"
              className="button plan-remove"
              aria-label={`Remove burst ${index + 1}`}
              disabled={scenario.workload.bursts.length <= 1}
              onClick={() =>
                setWorkload({ bursts: scenario.workload.bursts.filter((_, i) => i !== index) })
              }
            >
              Remove
            </button>
          </div>
        ))}
        <button
          type="button"
          className="button plan-add"
          disabled={scenario.workload.bursts.length >= 12}
          onClick={() =>
            setWorkload({
              bursts: [
                ...scenario.workload.bursts,
                { name: 'Copy a project', size: 50e9, target: 'movable', repeat: 1, gapSeconds: 0 },
              ],
            })
          }
        >
          Add a burst
        </button>
        <div className="plan-row">
          <Field label="Daily writes, internal data">
            {(id) => (
              <GbInput
                id={id}
                bytes={scenario.workload.dailyWritesInternal}
                onChange={(b) => setWorkload({ dailyWritesInternal: b })}
              />
            )}
          </Field>
          <Field label="Daily writes, movable data">
            {(id) => (
              <GbInput
                id={id}
                bytes={scenario.workload.dailyWritesMovable}
                onChange={(b) => setWorkload({ dailyWritesMovable: b })}
              />
            )}
          </Field>
        </div>
      </fieldset>

      <fieldset className="plan-fieldset plan-options-fieldset">
        <legend>Options to compare</legend>
        {scenario.options.map((option, index) => {
          const device = option.external ? deviceById.get(option.external.device) : undefined;
          return (
            <div className="plan-option-row" key={index}>
              <Field label={`Option ${index + 1}`}>
                {(id) => (
                  <input
                    id={id}
                    type="text"
                    maxLength={80}
                    value={option.name ?? ''}
                    placeholder="Name it"
                    onChange={(e) => updateOption(index, { name: e.target.value || undefined })}
                  />
                )}
              </Field>
              <Field
                label="Internal SSD"
                hint={tier ? undefined : 'No upgrade prices here: kept as it is'}
              >
                {(id) =>
                  tier && option.internalUpgradeUsd === undefined ? (
                    <select
                      id={id}
                      value={option.internalCapacity}
                      onChange={(e) =>
                        updateOption(index, { internalCapacity: Number(e.target.value) })
                      }
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
                      onChange={(b) => updateOption(index, { internalCapacity: Math.max(b, 1e9) })}
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
                      updateOption(index, {
                        external: e.target.value ? { device: e.target.value } : undefined,
                      })
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
                    placeholder={
                      device?.priceUsd !== null && device ? String(device.priceUsd) : 'required'
                    }
                    value={option.external?.priceUsd ?? ''}
                    onChange={(e) =>
                      option.external &&
                      updateOption(index, {
                        external: {
                          ...option.external,
                          priceUsd:
                            e.target.value === '' ? undefined : Math.max(0, Number(e.target.value)),
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
                disabled={scenario.options.length <= 1}
                onClick={() => set({ options: scenario.options.filter((_, i) => i !== index) })}
              >
                Remove
              </button>
            </div>
          );
        })}
        <div className="plan-actions">
          <button
            type="button"
            className="button plan-add"
            disabled={scenario.options.length >= 6}
            onClick={() =>
              set({
                options: [
                  ...scenario.options,
                  {
                    internalCapacity: tier?.steps[0]?.capacityBytes ?? 1e12,
                    // Without Apple's price tiers (a PC), the new option keeps today's disk.
                    ...(tier ? {} : { internalUpgradeUsd: 0 }),
                    external: { device: externals[0]?.id ?? 'tb5-2tb' },
                  },
                ],
              })
            }
          >
            Add an option
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Comparing…' : 'Compare options'}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
