/**
 * The app context: what every service needs from outside itself (Plumb's folders, the stores
 * kept in them and the OS module), built once by each front door (the CLI, `plumb serve`, the desktop app) and
 * handed down, so no service reaches for the environment or makes a store of its own. Tests
 * build one on a temporary folder (tests/helpers/context.ts).
 */
import { ResultsStore } from './bench/results-store.js';
import { hostOs, type OsModule } from './os/index.js';
import { plumbFolders, type PlumbFolders } from './paths.js';
import { deviceStore, type DeviceStore } from './planner/device-store.js';
import { scenarioStore, type ScenarioStore } from './planner/scenario-store.js';

export interface AppContext {
  readonly folders: PlumbFolders;
  /** What differs on this OS (app/core/os/). */
  readonly os: OsModule;
  /** Saved benchmark results. */
  readonly results: ResultsStore;
  /** The planner's own devices. */
  readonly devices: DeviceStore;
  /** Saved planner scenarios. */
  readonly scenarios: ScenarioStore;
}

/** The context for `folders` (by default those of this environment: PLUMB_DATA_DIR and the like). */
export function createAppContext(folders: PlumbFolders = plumbFolders()): AppContext {
  return {
    folders,
    os: hostOs,
    results: new ResultsStore(folders.results),
    devices: deviceStore(folders.plannerDevices),
    scenarios: scenarioStore(folders.plannerScenarios),
  };
}
