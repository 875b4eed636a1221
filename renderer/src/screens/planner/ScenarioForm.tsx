/** The planner's form: the computer, its data, its writes and the options to compare. */
import type { FormEvent } from 'react';
import type {
  Catalogue,
  DeviceProfile,
  MissingPrice,
  Scenario,
} from '../../../../app/contract/planner.js';
import { ComputerFields } from './scenario/ComputerFields.js';
import { DataFields } from './scenario/DataFields.js';
import { tierFor, withHost } from '../../ui/planner/host.js';
import { OptionsFields } from './scenario/OptionsFields.js';
import { WritesFields } from './scenario/WritesFields.js';

export interface ScenarioFormProps {
  scenario: Scenario;
  catalogue: Catalogue;
  measured: readonly DeviceProfile[];
  /** The user's own SSDs, saved in Plumb's data folder. */
  own: readonly DeviceProfile[];
  /** Prices the last evaluation could not find, to ask for in the options. */
  missing: readonly MissingPrice[];
  busy: boolean;
  onChange: (scenario: Scenario) => void;
  onSubmit: () => void;
}

export function ScenarioForm({
  scenario,
  catalogue,
  measured,
  own,
  missing,
  busy,
  onChange,
  onSubmit,
}: ScenarioFormProps) {
  const set = (patch: Partial<Scenario>) => onChange({ ...scenario, ...patch });
  const groups = [
    { label: 'Your own SSDs', devices: own.filter((d) => d.placement === 'external') },
    { label: 'Measured by Plumb', devices: measured.filter((d) => d.placement === 'external') },
    { label: 'Catalogue', devices: catalogue.devices.filter((d) => d.placement === 'external') },
  ].filter((g) => g.devices.length > 0);
  const internals = [
    { label: 'Your own SSDs to fit', devices: own.filter((d) => d.placement === 'internal') },
    { label: 'Measured by Plumb', devices: measured.filter((d) => d.placement === 'internal') },
  ].filter((g) => g.devices.length > 0);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form className="plan-form" onSubmit={submit} aria-label="Your situation">
      <ComputerFields
        scenario={scenario}
        set={set}
        setHost={(patch) => onChange(withHost(scenario, catalogue, patch))}
      />
      <DataFields
        data={scenario.data}
        setData={(patch) => set({ data: { ...scenario.data, ...patch } })}
      />
      <WritesFields
        workload={scenario.workload}
        setWorkload={(patch) => set({ workload: { ...scenario.workload, ...patch } })}
      />
      <OptionsFields
        options={scenario.options}
        setOptions={(options) => set({ options })}
        tier={tierFor(catalogue, scenario.host)}
        groups={groups}
        internals={internals}
        missing={missing}
        busy={busy}
      />
    </form>
  );
}
