/**
 * The planner's contract operations. Evaluation is pure; this layer adds the measured profiles
 * from saved results and the facts of this machine for the defaults.
 */
import os from 'node:os';
import type { Handlers } from '../dispatch.js';
import { volumeInfo } from '../volume.js';
import { builtInCatalogue } from './catalogue.js';
import { defaultScenario } from './defaults.js';
import { deviceStore, type DeviceStore } from './device-store.js';
import { evaluateWithSavedResults, measuredProfiles } from './measured.js';
import { parseScenario } from './scenario-file.js';

type PlannerOperation =
  | 'planner.catalogue'
  | 'planner.defaults'
  | 'planner.evaluate'
  | 'planner.devices.list'
  | 'planner.devices.save'
  | 'planner.devices.delete';

async function usedBytesOfHome(): Promise<number | null> {
  try {
    const info = await volumeInfo(os.homedir());
    return info.totalBytes - info.freeBytes;
  } catch {
    // No native addon or no readable home folder: the defaults say so in their notes.
    return null;
  }
}

export function plannerHandlers(
  measured = measuredProfiles,
  ownDevices: () => DeviceStore = () => deviceStore(),
): Pick<Handlers, PlannerOperation> {
  return {
    'planner.catalogue': async () => builtInCatalogue(),
    'planner.defaults': async () => {
      const [{ devices, skipped }, usedBytes] = await Promise.all([measured(), usedBytesOfHome()]);
      const defaults = defaultScenario({
        platform: process.platform,
        arch: process.arch,
        usedBytes,
        measured: devices,
      });
      const notes = [...defaults.notes, ...skipped.map((s) => `Result ${s}`)];
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
  };
}
