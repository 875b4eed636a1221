/**
 * Saved benchmark results as planner profiles: every result in the results folder that has write
 * measurements becomes a device the planner can use; the others are left out.
 */
import type { ResultDocument } from '../../contract/bench-result.js';
import type { DeviceProfile, Evaluation, Scenario } from '../../contract/planner.js';
import { builtInCatalogue } from './catalogue.js';
import { evaluateScenario } from './evaluate.js';
import { profileFromResult } from './profile-from-result.js';

export interface MeasuredProfiles {
  devices: DeviceProfile[];
  /** Ids of saved results that could not be read as results (damaged or from elsewhere). */
  unreadable: string[];
}

/** The saved results the planner reads (the results store of the app context). */
export interface SavedResults {
  list(): Promise<readonly { id: string }[]>;
  get(id: string): Promise<ResultDocument>;
}

/** Profiles from every stored result, newest first. */
export async function measuredProfiles(store: SavedResults): Promise<MeasuredProfiles> {
  const devices: DeviceProfile[] = [];
  const unreadable: string[] = [];
  for (const item of await store.list()) {
    try {
      devices.push(profileFromResult(await store.get(item.id)));
    } catch (error) {
      // A run that wrote nothing (reading a folder, the grid) is simply not a device profile.
      if ((error as { code?: string }).code !== 'ENOWRITES') unreadable.push(item.id);
    }
  }
  return { devices, unreadable };
}

/**
 * A scenario evaluated with the built-in catalogue and every saved result as a device (options may
 * name them "result:ID"): what `plumb plan`, the planner screen and a planner report all show.
 */
export async function evaluateWithSavedResults(
  scenario: Scenario,
  measured: () => Promise<MeasuredProfiles>,
): Promise<Evaluation> {
  const { devices } = await measured();
  return evaluateScenario(scenario, builtInCatalogue(), devices);
}
