/**
 * The user's own devices for the planner: one JSON file next to the results folder in Plumb's
 * data folder ($PLUMB_DATA_DIR when set), written atomically so a crash leaves the old list or
 * the new one. Figures the user typed carry no catalogue source: the planner marks them as theirs.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { PlumbError } from '../../contract/errors.js';
import { DeviceProfile, maxOwnDevices } from '../../contract/planner.js';
import { writePrivateFile } from '../paths.js';

const schema = 'plumb.devices/1';

const DevicesDocument = z.object({
  schema: z.literal(schema),
  devices: z.array(DeviceProfile).max(maxOwnDevices),
});

/**
 * A device as it is kept: the user's own, with only the sources they gave; external, or internal
 * when it is an SSD they would fit inside the computer.
 */
function asOwn(device: DeviceProfile): DeviceProfile {
  return { ...device, origin: 'custom' };
}

export class DeviceStore {
  /** Saves and deletes run one after another, so none undoes another's change. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  async list(): Promise<DeviceProfile[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new PlumbError(
        'EINVAL',
        `Your saved devices in ${this.file} are not valid JSON (${(error as Error).message}); fix or remove the file.`,
        { cause: error },
      );
    }
    const parsed = DevicesDocument.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new PlumbError(
        'EINVAL',
        `Your saved devices in ${this.file} are not a ${schema} document (${issue.path.map(String).join('.') || 'document'}: ${issue.message}); fix or remove the file.`,
      );
    }
    return parsed.data.devices;
  }

  private change(edit: (devices: DeviceProfile[]) => DeviceProfile[]): Promise<DeviceProfile[]> {
    const run = this.queue.then(async () => {
      const devices = edit(await this.list());
      const document = DevicesDocument.parse({ schema, devices });
      await writePrivateFile(this.file, `${JSON.stringify(document, null, 2)}\n`);
      return document.devices;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Adds the device, or replaces the saved one with its id. */
  async save(device: DeviceProfile): Promise<DeviceProfile[]> {
    const own = asOwn(DeviceProfile.parse(device));
    if (own.id.startsWith('result:')) {
      throw new PlumbError('EINVAL', 'Ids that start with "result:" are for measured profiles.');
    }
    return this.change((devices) => {
      const at = devices.findIndex((d) => d.id === own.id);
      if (at >= 0) return devices.map((d, i) => (i === at ? own : d));
      if (devices.length >= maxOwnDevices) {
        throw new PlumbError(
          'ELIMIT',
          `You can keep ${maxOwnDevices} devices of your own; delete one before adding another.`,
        );
      }
      return [...devices, own];
    });
  }

  async delete(id: string): Promise<DeviceProfile[]> {
    return this.change((devices) => {
      if (!devices.some((d) => d.id === id)) {
        throw new PlumbError('ENOENT', `You have no saved device "${id}".`);
      }
      return devices.filter((d) => d.id !== id);
    });
  }
}

const stores = new Map<string, DeviceStore>();

/** One store per file, so saves from every window of this process queue up together. */
export function deviceStore(file: string): DeviceStore {
  let store = stores.get(file);
  if (!store) {
    store = new DeviceStore(file);
    stores.set(file, store);
  }
  return store;
}
