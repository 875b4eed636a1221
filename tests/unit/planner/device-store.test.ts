/**
 * The user's own planner devices on disk: planner-devices.json beside results/ in the data folder,
 * written atomically, read back by a new store (a restart), and served through the contract.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { DeviceProfile, type DeviceProfileInput } from '../../../app/contract/planner.js';
import { createDispatcher } from '../../../app/core/dispatch.js';
import { DeviceStore } from '../../../app/core/planner/device-store.js';
import { plumbFolders } from '../../../app/core/paths.js';
import { createHandlers } from '../../../app/core/services.js';
import { testContext } from '../../helpers/context.js';

let dir = '';
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plumb-devices-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const device = (id: string, patch: Partial<DeviceProfileInput> = {}) =>
  DeviceProfile.parse({
    id,
    name: `SSD ${id}`,
    interface: 'usb4',
    capacityBytes: '2TB',
    priceUsd: 199,
    writeBytesPerSecond: 3.7e9,
    afterCacheWriteBytesPerSecond: 1.5e9,
    cacheKind: 'dynamic-tlc',
    cacheBytes: '200GB',
    ...patch,
  });

test('the file sits beside results/ in the data folder; PLUMB_DATA_DIR moves both', () => {
  const moved = plumbFolders({ PLUMB_DATA_DIR: '/data/plumb' });
  assert.equal(moved.plannerDevices, path.join('/data/plumb', 'planner-devices.json'));
  assert.equal(path.dirname(moved.plannerDevices), path.dirname(moved.results));
  const linux = plumbFolders({ XDG_DATA_HOME: '/x' }, 'linux', '/home/ann');
  assert.equal(linux.plannerDevices, '/x/plumb/planner-devices.json');
  assert.equal(path.dirname(linux.plannerDevices), path.dirname(linux.results));
});

test('save, edit and delete survive a restart, and leave no temporary files', async () => {
  const file = path.join(dir, 'restart', 'planner-devices.json');
  assert.deepEqual(await new DeviceStore(file).list(), [], 'no file yet: no devices');
  const first = new DeviceStore(file);
  await first.save(device('a'));
  await first.save(device('b', { priceUsd: 150 }));
  const edited = await first.save(
    device('a', { name: 'Renamed', interface: 'nvme-internal', placement: 'internal' }),
  );
  assert.deepEqual(
    edited.map((d) => [d.id, d.name, d.placement, d.origin]),
    [
      ['a', 'Renamed', 'internal', 'custom'],
      ['b', 'SSD b', 'external', 'custom'],
    ],
    'an edit replaces in place; own devices are custom, and one to fit inside stays internal',
  );

  const restarted = new DeviceStore(file);
  assert.deepEqual(await restarted.list(), edited);
  const text = JSON.parse(await readFile(file, 'utf8')) as { schema: string };
  assert.equal(text.schema, 'plumb.devices/1');
  assert.deepEqual(
    (await restarted.delete('a')).map((d) => d.id),
    ['b'],
  );
  assert.deepEqual(
    (await new DeviceStore(file).list()).map((d) => d.id),
    ['b'],
  );
  assert.deepEqual(await readdir(path.dirname(file)), ['planner-devices.json']);
});

test('saves that arrive together all land', async () => {
  const store = new DeviceStore(path.join(dir, 'together', 'planner-devices.json'));
  await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id) => store.save(device(id))));
  assert.deepEqual((await store.list()).map((d) => d.id).sort(), ['a', 'b', 'c', 'd', 'e']);
});

test('refusals: unknown id, too many devices, measured ids, a damaged file', async () => {
  const file = path.join(dir, 'refusals', 'planner-devices.json');
  const store = new DeviceStore(file);
  await assert.rejects(store.delete('nope'), { code: 'ENOENT', message: /no saved device "nope"/ });
  await assert.rejects(store.save(device('result:20250101-000000-abcd')), {
    code: 'EINVAL',
    message: /measured profiles/,
  });
  for (let i = 0; i < 20; i += 1) await store.save(device(`d${i}`));
  await assert.rejects(store.save(device('one-more')), {
    code: 'ELIMIT',
    message: /keep 20 devices/,
  });
  assert.equal((await store.save(device('d3', { priceUsd: 1 }))).length, 20, 'edits still work');

  await writeFile(file, '{"schema": "plumb.devices/1", "devices": [');
  await assert.rejects(store.list(), { code: 'EINVAL', message: /not valid JSON.*fix or remove/ });
  await assert.rejects(store.save(device('x')), { code: 'EINVAL' });
  await writeFile(file, JSON.stringify({ schema: 'plumb.devices/1', devices: [{ id: 'x' }] }));
  await assert.rejects(store.list(), { message: /devices\.0\.name/ });
});

test('the contract operations list, save and delete through the dispatcher', async () => {
  const app = testContext(path.join(dir, 'contract'));
  const dispatcher = createDispatcher(createHandlers(app, 'web'));
  const context = { emit: () => undefined };
  const saved = (await dispatcher.call(
    'planner.devices.save',
    { device: { ...device('mine'), capacityBytes: '4TB' } },
    context,
  )) as { device: DeviceProfile; devices: DeviceProfile[] };
  assert.equal(saved.device.capacityBytes, 4e12);
  assert.deepEqual(
    saved.devices.map((d) => d.id),
    ['mine'],
  );
  await assert.rejects(
    dispatcher.call(
      'planner.devices.save',
      { device: { ...device('bad'), writeBytesPerSecond: 0 } },
      context,
    ),
    { code: 'EINVAL', message: /writeBytesPerSecond/ },
  );
  assert.deepEqual(await dispatcher.call('planner.devices.list', {}, context), {
    devices: saved.devices,
  });
  assert.deepEqual(await dispatcher.call('planner.devices.delete', { id: 'mine' }, context), {
    devices: [],
  });
});
