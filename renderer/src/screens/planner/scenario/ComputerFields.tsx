/** "Your computer": kind, port, dock, horizon and what matters most. */
import type { HostKind, PortKind, Scenario } from '../../../../../app/contract/planner.js';
import { Field, NumberInput } from './fields.js';
import { hostKinds, ports } from '../../../ui/planner/host.js';

export function ComputerFields({
  scenario,
  set,
  setHost,
}: {
  scenario: Scenario;
  set: (patch: Partial<Scenario>) => void;
  setHost: (patch: Partial<Scenario['host']>) => void;
}) {
  return (
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
          <NumberInput
            id={id}
            value={scenario.horizonYears}
            rule={{ min: 1, max: 10, whole: true }}
            onChange={(years) => set({ horizonYears: years })}
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
  );
}
