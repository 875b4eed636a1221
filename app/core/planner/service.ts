/**
 * The planner's contract operations. Evaluation is pure; this layer adds the measured profiles
 * from saved results and the facts of this machine for the defaults.
 */
import os from 'node:os';
import path from 'node:path';
import type { Handlers } from '../dispatch.js';
import { hostOs } from '../os/index.js';
import { volumeInfo } from '../volume.js';
import { builtInCatalogue } from './catalogue.js';
import { defaultScenario } from './defaults.js';
import type { DeviceStore } from './device-store.js';
import { evaluateWithSavedResults, type MeasuredProfiles } from './measured.js';
import { exampleScenario, exampleScenarios } from './examples.js';
import { parseScenario, parseScenarioText, scenarioText } from './scenario-file.js';
import type { ScenarioStore } from './scenario-store.js';
import { slugOf } from '../../common/format.js';

type PlannerOperation =
  | 'planner.catalogue'
  | 'planner.defaults'
  | 'planner.evaluate'
  | 'planner.devices.list'
  | 'planner.devices.save'
  | 'planner.devices.delete'
  | 'planner.scenarios.list'
  | 'planner.scenarios.open'
  | 'planner.scenarios.save'
  | 'planner.scenarios.duplicate'
  | 'planner.scenarios.delete'
  | 'planner.scenarios.import'
  | 'planner.scenarios.export';

async function usedBytesOfHome(): Promise<number | null> {
  try {
    const info = await volumeInfo(os.homedir());
    return info.totalBytes - info.freeBytes;
  } catch {
    // No native addon or no readable home folder: the defaults say so in their notes.
    return null;
  }
}

/** One note for every saved result the planner could not read, with what to do about it. */
function unreadableNote(ids: readonly string[]): string {
  const which = ids.length === 1 ? `saved result ${ids[0]}` : `${ids.length} saved results`;
  return `The planner left out ${which}: it could not be read as a Plumb result. Open Results to look at it, or delete it there.`;
}

/** What the planner reads and keeps: the app context's results, devices and scenarios. */
export interface PlannerSources {
  measured: () => Promise<MeasuredProfiles>;
  devices: DeviceStore;
  scenarios: ScenarioStore;
}

export function plannerHandlers(sources: PlannerSources): Pick<Handlers, PlannerOperation> {
  const { measured } = sources;
  const ownDevices = () => sources.devices;
  const scenarios = () => sources.scenarios;
  const lists = async () => ({ saved: await scenarios().list(), examples: exampleScenarios() });
  return {
    'planner.catalogue': async () => builtInCatalogue(),
    'planner.defaults': async () => {
      const [{ devices, unreadable }, usedBytes] = await Promise.all([
        measured(),
        usedBytesOfHome(),
      ]);
      const defaults = defaultScenario({
        platform: hostOs.platform,
        arch: process.arch,
        usedBytes,
        measured: devices,
      });
      const notes = unreadable.length
        ? [...defaults.notes, unreadableNote(unreadable)]
        : defaults.notes;
      return {
        scenario: parseScenario(defaults.scenario, 'defaults'),
        measuredDevices: devices,
        notes,
      };
    },
    'planner.evaluate': async (scenario) => {
      return evaluateWithSavedResults(scenario, measured);
    },
    'planner.devices.list': async () => ({ devices: await ownDevices().list() }),
    'planner.devices.save': async ({ device }) => {
      const saved = await ownDevices().save(device);
      return { device: saved.find((d) => d.id === device.id)!, devices: saved };
    },
    'planner.devices.delete': async ({ id }) => ({ devices: await ownDevices().delete(id) }),
    'planner.scenarios.list': lists,
    'planner.scenarios.open': async ({ from, id }) => ({
      scenario: from === 'example' ? exampleScenario(id) : await scenarios().open(id),
    }),
    'planner.scenarios.save': async ({ id, scenario }) => {
      const entry = await scenarios().save(scenario, id);
      return { entry, ...(await lists()) };
    },
    'planner.scenarios.duplicate': async ({ id }) => {
      const entry = await scenarios().duplicate(id);
      return { entry, ...(await lists()) };
    },
    'planner.scenarios.delete': async ({ id }) => {
      await scenarios().delete(id);
      return lists();
    },
    'planner.scenarios.import': async ({ text, fileName }) => {
      // The parser `plumb plan` uses: an imported file is refused exactly as the CLI refuses it.
      const scenario = parseScenarioText(text, path.basename(fileName) || 'The file');
      const entry = await scenarios().save(scenario);
      return { entry, scenario, ...(await lists()) };
    },
    'planner.scenarios.export': async ({ scenario }) => ({
      fileName: `${slugOf(scenario.name) || 'scenario'}.json`,
      text: scenarioText(scenario),
    }),
  };
}
