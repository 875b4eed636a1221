/**
 * The example scenarios in examples/scenarios/, bundled into the build so the planner opens them
 * in the desktop app, the browser and `plumb plan` alike. Each is checked by the one parser.
 */
import { PlumbError } from '../../contract/errors.js';
import type { ExampleScenario, Scenario } from '../../contract/planner.js';
import intelMacAndDock from '../../../examples/scenarios/intel-mac-and-dock.json' with { type: 'json' };
import repeatedImports from '../../../examples/scenarios/repeated-imports.json' with { type: 'json' };
import smallInternalVs2tb from '../../../examples/scenarios/small-internal-vs-2tb.json' with { type: 'json' };
import tb5VsUsb4 from '../../../examples/scenarios/tb5-vs-usb4-100gb.json' with { type: 'json' };
import windowsPcFit2tb from '../../../examples/scenarios/windows-pc-fit-2tb.json' with { type: 'json' };
import { parseScenario } from './scenario-file.js';

/** File name (without .json) → document, in the order the planner lists them. */
const examples: Record<string, unknown> = {
  'tb5-vs-usb4-100gb': tb5VsUsb4,
  'small-internal-vs-2tb': smallInternalVs2tb,
  'repeated-imports': repeatedImports,
  'intel-mac-and-dock': intelMacAndDock,
  'windows-pc-fit-2tb': windowsPcFit2tb,
};

export function exampleScenario(id: string): Scenario {
  const data = examples[id];
  if (data === undefined) {
    throw new PlumbError(
      'ENOENT',
      `There is no example scenario "${id}"; use one of ${Object.keys(examples).join(', ')}.`,
    );
  }
  return parseScenario(data, `examples/scenarios/${id}.json`);
}

export function exampleScenarios(): ExampleScenario[] {
  return Object.keys(examples).map((id) => ({ id, name: exampleScenario(id).name }));
}
