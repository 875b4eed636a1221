import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deviceFigureFields } from '../../../app/contract/planner.js';
import { builtInCatalogue, checkCatalogue } from '../../../app/core/planner/catalogue.js';
import catalogueData from '../../../app/core/planner/catalogue.json' with { type: 'json' };

test('every figure in the built-in catalogue names a source that the catalogue lists', () => {
  const catalogue = builtInCatalogue();
  const known = new Set(catalogue.sources.map((s) => s.id));
  let figures = 0;
  for (const device of catalogue.devices) {
    for (const field of deviceFigureFields) {
      if (device[field] === null) continue;
      figures += 1;
      assert.ok(known.has(device.sources[field] ?? ''), `${device.id}.${field}`);
    }
  }
  assert.ok(figures > 50, `only ${figures} device figures`);
});

test('the catalogue holds the figures the seeds give', () => {
  const catalogue = builtInCatalogue();
  const tb5 = catalogue.devices.find((d) => d.id === 'tb5-2tb')!;
  assert.deepEqual(
    [
      tb5.cacheBytes,
      tb5.writeBytesPerSecond,
      tb5.afterCacheWriteBytesPerSecond,
      tb5.cacheRecoverySeconds,
    ],
    [50e9, 5.5e9, 1.4e9, 240],
  );
  const ceiling = (id: string) =>
    catalogue.interfaces.find((i) => i.id === id)!.ceilingBytesPerSecond.value;
  assert.deepEqual(
    ['tb5', 'usb4', 'tb3', 'usb32g2', 'sata'].map(ceiling),
    [6e9, 3.8e9, 2.8e9, 1e9, 0.55e9],
  );
  assert.equal(catalogue.rules.bootMinFreeBytes.value, 50e9);
  assert.equal(catalogue.rules.bootMinFreeFraction.value, 0.2);
});

test('a figure without a source, or with an unknown one, makes the catalogue invalid', () => {
  const copy = structuredClone(catalogueData) as unknown as {
    devices: { sources: Record<string, string> }[];
  };
  delete copy.devices[0]!.sources.writeBytesPerSecond;
  assert.throws(() => checkCatalogue(copy), {
    code: 'ECATALOGUE',
    message: /apple-silicon-internal\.writeBytesPerSecond/,
  });
  const unknown = structuredClone(catalogueData) as unknown as {
    rules: { bootMinFreeBytes: { source: string } };
  };
  unknown.rules.bootMinFreeBytes.source = 'hearsay';
  assert.throws(() => checkCatalogue(unknown), {
    code: 'ECATALOGUE',
    message: /rule bootMinFreeBytes/,
  });
});
