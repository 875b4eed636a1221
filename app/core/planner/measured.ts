/**
 * Saved benchmark results as planner profiles: every result in the results folder that has write
 * measurements becomes a device the planner can use.
 */
import type { DeviceProfile, Evaluation, Scenario } from '../../contract/planner.js';
import { resultsDir } from '../bench/results-dir.js';
import { ResultsStore } from '../bench/results-store.js';
import { builtInCatalogue } from './catalogue.js';
import { evaluateScenario } from './evaluate.js';
import { profileFromResult } from './profile-from-result.js';

export interface MeasuredProfiles {
  devices: DeviceProfile[];
  /** One line per result that could not become a profile, saying why. */
  skipped: string[];
}

/** Profiles from every stored result, newest first. */
export async function measuredProfiles(
  store: ResultsStore = new ResultsStore(resultsDir()),
): Promise<MeasuredProfiles> {
  const devices: DeviceProfile[] = [];
  const skipped: string[] = [];
  for (const item of await store.list()) {
    try {
      devices.push(profileFromResult(await store.get(item.id)));
    } catch (error) {
      skipped.push(`${item.id}: ${(error as Error).message}`);
    }
  }
  return { devices, skipped };
}

/**
 * A scenario evaluated with the built-in catalogue and every saved result as a device (options may
 * name them "result:ID"): what `plumb plan`, the planner screen and a planner report all show.
 */
export async function evaluateWithSavedResults(
  scenario: Scenario,
  measured: () => Promise<MeasuredProfiles> = measuredProfiles,
): Promise<Evaluation> {
  const { devices } = await measured();
  return evaluateScenario(scenario, builtInCatalogue(), devices);
}
