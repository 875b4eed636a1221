/**
 * Scenarios as documents: each saved scenario is one file, ID.json, in planner-scenarios/ next to
 * results/ in Plumb's data folder ($PLUMB_DATA_DIR when set). The file is exactly what `plumb plan`
 * reads and what export writes (scenarioText), and it is read back with the same parser; writes
 * are atomic, so a crash leaves the old file or the new one.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { slugOf } from '../../common/format.js';
import { PlumbError } from '../../contract/errors.js';
import { ScenarioId, type SavedScenario, type Scenario } from '../../contract/planner.js';
import { writePrivateFile } from '../paths.js';
import { parseScenarioText, scenarioText } from './scenario-file.js';

/** How many scenarios a user can keep: the list stays one a person can read. */
const maxSavedScenarios = 200;

/** A new id: the name made safe, then a few random letters ("my-next-mac-3f9a"). */
function newScenarioId(name: string): string {
  return `${slugOf(name) || 'scenario'}-${randomBytes(2).toString('hex')}`;
}

/** "My plan (copy)", kept within the schema's 120 characters. */
function copyName(name: string): string {
  const suffix = ' (copy)';
  return `${name.slice(0, 120 - suffix.length)}${suffix}`;
}

export class ScenarioStore {
  /** Saves and deletes run one after another, so none undoes another's change. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly dir: string) {}

  private file(id: string): string {
    // The id comes from the contract's pattern; checked again here because the path is built from it.
    const parsed = ScenarioId.safeParse(id);
    if (!parsed.success) {
      throw new PlumbError('EINVAL', `"${id}" is not a scenario id; pick one from the list.`);
    }
    return path.join(this.dir, `${parsed.data}.json`);
  }

  /** Every saved scenario, newest first; a damaged file is listed by its id and says so. */
  async list(): Promise<SavedScenario[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const entries = await Promise.all(
      names
        .filter((name) => name.endsWith('.json') && ScenarioId.safeParse(name.slice(0, -5)).success)
        .map(async (name) => {
          const id = name.slice(0, -5);
          const file = path.join(this.dir, name);
          const [info, text] = await Promise.all([stat(file), readFile(file, 'utf8')]);
          let title: string;
          try {
            title = parseScenarioText(text, name).name;
          } catch (error) {
            title = `${id} (cannot be opened: ${(error as Error).message})`;
          }
          return { id, name: title, savedAt: info.mtime.toISOString() };
        }),
    );
    return entries.sort((a, b) => b.savedAt.localeCompare(a.savedAt) || a.id.localeCompare(b.id));
  }

  async open(id: string): Promise<Scenario> {
    const file = this.file(id);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new PlumbError(
          'ENOENT',
          `There is no saved scenario "${id}"; it may have been deleted.`,
          {
            cause: error,
          },
        );
      }
      throw error;
    }
    return parseScenarioText(text, `The saved scenario ${file}`);
  }

  private change<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Saves as a new scenario without an id, else replaces the one with that id. */
  save(scenario: Scenario, id?: string): Promise<SavedScenario> {
    return this.change(async () => {
      if (id === undefined) {
        const count = (await this.list()).length;
        if (count >= maxSavedScenarios) {
          throw new PlumbError(
            'ELIMIT',
            `You can keep ${maxSavedScenarios} scenarios; delete one before saving another.`,
          );
        }
      }
      const target = id ?? newScenarioId(scenario.name);
      const file = this.file(target);
      await writePrivateFile(file, scenarioText(scenario));
      return { id: target, name: scenario.name, savedAt: (await stat(file)).mtime.toISOString() };
    });
  }

  async duplicate(id: string): Promise<SavedScenario> {
    const scenario = await this.open(id);
    return this.save({ ...scenario, name: copyName(scenario.name) });
  }

  delete(id: string): Promise<void> {
    return this.change(async () => {
      const file = this.file(id);
      try {
        await rm(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new PlumbError('ENOENT', `There is no saved scenario "${id}".`, { cause: error });
        }
        throw error;
      }
    });
  }
}

const stores = new Map<string, ScenarioStore>();

/** One store per folder, so saves from every window of this process queue up together. */
export function scenarioStore(dir: string): ScenarioStore {
  let store = stores.get(dir);
  if (!store) {
    store = new ScenarioStore(dir);
    stores.set(dir, store);
  }
  return store;
}
