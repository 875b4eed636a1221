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

/** One note for every saved result the planner could not read, with what to do about it. */
function unreadableNote(ids: readonly string[]): string {
  const which = ids.length === 1 ? `saved result ${ids[0]}` : `${ids.length} saved results`;
  return `The planner left out ${which}: it could not be read as a Plumb result. Open Results to look at it, or delete it there.`;
}

export function plannerHandlers(
  measured = measuredProfiles,
  ownDevices: () => DeviceStore = () => deviceStore(),
): Pick<Handlers, PlannerOperation> {
  return {
    'planner.catalogue': async () => builtInCatalogue(),
    'planner.defaults': async () => {
      const [{ devices, unreadable }, usedBytes] = await Promise.all([
        measured(),
        usedBytesOfHome(),
      ]);
      const defaults = defaultScenario({
        platform: process.platform,
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
  };
}
