/**
 * The planner's contract operations. Evaluation is pure; this layer adds the facts of this
 * machine for the defaults.
 */
import os from 'node:os';
import type { Handlers } from '../dispatch.js';
import { volumeInfo } from '../volume.js';
import { builtInCatalogue } from './catalogue.js';
import { defaultScenario } from './defaults.js';
import { evaluateScenario } from './evaluate.js';
import { parseScenario } from './scenario-file.js';

type PlannerOperation = 'planner.catalogue' | 'planner.defaults' | 'planner.evaluate';

async function usedBytesOfHome(): Promise<number | null> {
  try {
    const info = await volumeInfo(os.homedir());
    return info.totalBytes - info.freeBytes;
  } catch {
    // No native addon or no readable home folder: the defaults say so in their notes.
    return null;
  }
}

export function plannerHandlers(): Pick<Handlers, PlannerOperation> {
  return {
    'planner.catalogue': async () => builtInCatalogue(),
    'planner.defaults': async () => {
      const defaults = defaultScenario({
        platform: process.platform,
        arch: process.arch,
        usedBytes: await usedBytesOfHome(),
        measured: [],
      });
      return {
        scenario: parseScenario(defaults.scenario, 'defaults'),
        measuredDevices: [],
        notes: defaults.notes,
      };
    },
    'planner.evaluate': async (scenario) => evaluateScenario(scenario, builtInCatalogue()),
  };
}
