/**
 * The Planner's "your own SSD" form: units as people write them, one message per wrong field, and
 * a device the contract accepts and the planner evaluates with the user's figures.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DeviceProfile, Scenario } from '../../../app/contract/planner.js';
import { builtInCatalogue } from '../../../app/core/planner/catalogue.js';
import { evaluateScenario } from '../../../app/core/planner/evaluate.js';
import {
  deviceFromDraft,
  draftFromDevice,
  emptyDraft,
  newDeviceId,
  parseDuration,
  parseRate,
  parseSize,
  parseTbw,
  parseUsd,
  type DeviceDraft,
} from '../../../renderer/src/screens/planner/device-form.js';

const value = (parsed: { value: number } | { error: string }) => {
  assert.ok('value' in parsed, `parsed: ${JSON.stringify(parsed)}`);
  return parsed.value;
};
const error = (parsed: { value: number } | { error: string }) => {
  assert.ok('error' in parsed, `refused: ${JSON.stringify(parsed)}`);
  return parsed.error;
};

test('sizes, rates, times, prices and endurance in the units people write', () => {
  assert.equal(value(parseSize('2 TB')), 2e12);
  assert.equal(value(parseSize('500GB')), 500e9);
  assert.equal(value(parseSize(' 1,5 tb ')), 1.5e12);
  assert.equal(value(parseSize('1 TiB')), 1024 ** 4);
  assert.match(error(parseSize('2000')), /add a unit/);
  assert.match(error(parseSize('two terabytes')), /like "2 TB"/);

  assert.equal(value(parseRate('5.5 GB/s')), 5.5e9);
  assert.equal(value(parseRate('3500 MB/s')), 3.5e9);
  assert.equal(value(parseRate('1.4GBps')), 1.4e9);
  assert.equal(value(parseRate('900 mb/s')), 900e6);
  assert.match(error(parseRate('40 Gb/s')), /not bits/);
  assert.match(error(parseRate('10 Gbps')), /not bits/);
  assert.match(error(parseRate('5 Gbit/s')), /not bits/);
  assert.match(error(parseRate('5.5')), /add a unit/);
  assert.match(error(parseRate('5.5 GB')), /like "5.5 GB\/s"/);

  assert.equal(value(parseDuration('90 s')), 90);
  assert.equal(value(parseDuration('2 min')), 120);
  assert.equal(value(parseDuration('1.5 h')), 5400);
  assert.match(error(parseDuration('soon')), /like "90 s"/);

  assert.equal(value(parseUsd('$179.99')), 179.99);
  assert.equal(value(parseUsd('1,299')), 1299);
  assert.equal(value(parseUsd('0')), 0);
  assert.match(error(parseUsd('-5')), /US dollars/);

  assert.equal(value(parseTbw('1200')), 1200e12);
  assert.equal(value(parseTbw('1200 TBW')), 1200e12);
  assert.equal(value(parseTbw('1.2 PB')), 1.2e15);
  assert.match(error(parseTbw('lots')), /1200 TBW/);
});

const seedTb5: DeviceDraft = {
  ...emptyDraft,
  name: 'My TB5 SSD',
  capacity: '2 TB',
  price: '$379',
  interface: 'tb5',
  read: '6 GB/s',
  write: '5.5 GB/s',
  cacheKind: 'fixed',
  cache: '50 GB',
  afterCacheWrite: '1.4 GB/s',
  recovery: '2 min',
  tbw: '1200 TBW',
};

test('a complete form makes a device the contract accepts, with no sources of its own', () => {
  const result = deviceFromDraft(seedTb5, () => 'mine-test');
  assert.ok(result.ok);
  const device = DeviceProfile.parse(result.device);
  assert.deepEqual(
    {
      id: device.id,
      capacity: device.capacityBytes,
      price: device.priceUsd,
      read: device.readBytesPerSecond,
      write: device.writeBytesPerSecond,
      after: device.afterCacheWriteBytesPerSecond,
      cache: device.cacheBytes,
      recovery: device.cacheRecoverySeconds,
      tbw: device.tbwBytes,
      origin: device.origin,
      placement: device.placement,
      sources: device.sources,
    },
    {
      id: 'mine-test',
      capacity: 2e12,
      price: 379,
      read: 6e9,
      write: 5.5e9,
      after: 1.4e9,
      cache: 50e9,
      recovery: 120,
      tbw: 1200e12,
      origin: 'custom',
      placement: 'external',
      sources: {},
    },
  );
  // Back into the form and out again: the same device (editing keeps the id).
  const again = deviceFromDraft(draftFromDevice(device));
  assert.ok(again.ok);
  assert.deepEqual(again.device, device);
});

test('every wrong or missing field gets its own message', () => {
  const result = deviceFromDraft({
    ...emptyDraft,
    name: '  ',
    capacity: '2000',
    price: '',
    read: 'fast',
    write: '40 Gb/s',
    cacheKind: 'dynamic-tlc',
    cache: '',
    afterCacheWrite: '0 GB/s',
    recovery: 'a while',
    tbw: '0',
  });
  assert.ok(!result.ok);
  assert.deepEqual(Object.keys(result.errors).sort(), [
    'afterCacheWrite',
    'cache',
    'capacity',
    'name',
    'price',
    'read',
    'recovery',
    'tbw',
    'write',
  ]);
  assert.match(result.errors.name!, /name/);
  assert.match(result.errors.capacity!, /add a unit/);
  assert.match(result.errors.price!, /0 if you already own it/);
  assert.match(result.errors.write!, /not bits/);
  assert.match(result.errors.cache!, /cache size/);
  assert.match(result.errors.afterCacheWrite!, /above 0/);
  assert.match(result.errors.tbw!, /above 0 TBW/);
});

test('figures that contradict each other are refused; no cache needs no cache figures', () => {
  const slowerCache = deviceFromDraft({ ...seedTb5, afterCacheWrite: '6 GB/s' });
  assert.ok(!slowerCache.ok);
  assert.match(slowerCache.errors.afterCacheWrite!, /no faster than in it/);
  const bigCache = deviceFromDraft({ ...seedTb5, cache: '3 TB' });
  assert.ok(!bigCache.ok);
  assert.match(bigCache.errors.cache!, /larger than the disk/);
  const tiny = deviceFromDraft({ ...seedTb5, capacity: '200 MB' });
  assert.ok(!tiny.ok);
  assert.match(tiny.errors.capacity!, /between 1 GB and 1 PB/);

  const steady = deviceFromDraft({
    ...seedTb5,
    cacheKind: 'none',
    cache: 'ignored',
    afterCacheWrite: 'ignored',
    recovery: 'ignored',
  });
  assert.ok(steady.ok);
  assert.equal(steady.device.cacheBytes, null);
  assert.equal(steady.device.afterCacheWriteBytesPerSecond, null);
  assert.equal(steady.device.cacheRecoverySeconds, null);
});

test('new ids are safe, start with "mine-" and differ by their random tail', () => {
  assert.equal(
    newDeviceId('Samsung T9 (2 TB)!', () => 0.5),
    `mine-samsung-t9-2-tb-${Math.floor(0.5 * 36 ** 4).toString(36)}`,
  );
  assert.match(
    newDeviceId('???', () => 0),
    /^mine-ssd-0000$/,
  );
  assert.notEqual(
    newDeviceId('x', () => 0.1),
    newDeviceId('x', () => 0.2),
  );
});

test('the planner uses the figures typed in the form and lists each as "your figure"', () => {
  const result = deviceFromDraft(seedTb5, () => 'mine-tb5');
  assert.ok(result.ok);
  const evaluation = evaluateScenario(
    Scenario.parse({
      host: { kind: 'apple-silicon', port: 'tb5' },
      data: { keepInternal: '200GB', movable: '500GB' },
      workload: { bursts: [{ name: 'Import', size: '100GB' }] },
      devices: [result.device],
      options: [{ internalCapacity: '512GB', external: { device: 'mine-tb5' } }],
    }),
    builtInCatalogue(),
  );
  const option = evaluation.options[0]!;
  const external = option.disks[1]!;
  // The seed-003 arithmetic with the user's own figures: 50 GB at 5.5, 50 GB at 1.4.
  assert.ok(Math.abs(option.bursts[0]!.totalSeconds - (50 / 5.5 + 50 / 1.4)) < 1e-9);
  assert.equal(option.costUsd, 379, 'the base 512 GB costs nothing more; the SSD its price');
  assert.equal(external.cacheBytes, 50e9);
  const yours = evaluation.sources.find((s) => s.id === 'yours-1');
  assert.ok(yours, 'the sources list the user figures');
  assert.ok(external.sources.includes('yours-1'));
  assert.equal(yours.title, 'Your figures for My TB5 SSD');
  assert.equal(
    yours.where,
    'capacity 2 TB, price $379, read 6 GB/s, write in the cache 5.5 GB/s, write after the cache 1.4 GB/s, cache 50 GB, cache recovery 2 min 0 s, endurance 1200 TBW',
  );
});
