/** "Your data": what stays internal, what could move out, and how each grows. */
import type { Scenario } from '../../../../../app/contract/planner.js';
import { GbField } from './fields.js';

export function DataFields({
  data,
  setData,
}: {
  data: Scenario['data'];
  setData: (patch: Partial<Scenario['data']>) => void;
}) {
  return (
    <fieldset className="plan-fieldset">
      <legend>Your data</legend>
      <GbField
        label="Must stay internal"
        hint="System, apps, home folder"
        bytes={data.keepInternal}
        onChange={(b) => setData({ keepInternal: b })}
      />
      <GbField
        label="Could move out"
        hint="Media libraries, projects"
        bytes={data.movable}
        onChange={(b) => setData({ movable: b })}
      />
      <GbField
        label="Internal growth a year"
        bytes={data.internalGrowthPerYear}
        onChange={(b) => setData({ internalGrowthPerYear: b })}
      />
      <GbField
        label="Growth a year of data that can move out"
        bytes={data.movableGrowthPerYear}
        onChange={(b) => setData({ movableGrowthPerYear: b })}
      />
    </fieldset>
  );
}
