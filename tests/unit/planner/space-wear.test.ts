import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtInCatalogue } from '../../../app/core/planner/catalogue.js';
import { firstShortYear, spaceOverYears, spaceStatus } from '../../../app/core/planner/space.js';
import { enduranceBytes, wearLifeYears } from '../../../app/core/planner/wear.js';

const rules = builtInCatalogue().rules;

test('boot disk: at least 20 % and 50 GB free; 100 GB is comfortable', () => {
  assert.equal(spaceStatus(512e9, 120e9, true, rules), 'comfortable');
  assert.equal(spaceStatus(512e9, 100e9, true, rules), 'below-minimum'); // under 20 % of 512 GB
  assert.equal(spaceStatus(256e9, 60e9, true, rules), 'ok'); // 23 %, over 50 GB, under 100 GB
  assert.equal(spaceStatus(200e9, 45e9, true, rules), 'below-minimum'); // 22 % but under 50 GB
  assert.equal(spaceStatus(512e9, 0, true, rules), 'full');
  // Other disks: 20 % free keeps them healthy.
  assert.equal(spaceStatus(2e12, 500e9, false, rules), 'comfortable');
  assert.equal(spaceStatus(2e12, 300e9, false, rules), 'below-minimum');
});

test('space over the years grows linearly and reports the first short year', () => {
  const years = spaceOverYears({
    capacityBytes: 512e9,
    usedBytes: 300e9,
    growthBytesPerYear: 40e9,
    years: 4,
    isBootDisk: true,
    rules,
  });
  assert.deepEqual(
    years.map((y) => y.freeBytes / 1e9),
    [212, 172, 132, 92, 52],
  );
  assert.equal(firstShortYear(years), 3);
});

test('same write load: a 512 GB SSD lasts about half as long as a 1 TB one (seed 000)', () => {
  const small = enduranceBytes(null, 512e9, rules);
  const large = enduranceBytes(null, 1e12, rules);
  assert.ok(small.assumed && large.assumed);
  const ratio = wearLifeYears(small.bytes, 50e9)! / wearLifeYears(large.bytes, 50e9)!;
  assert.ok(Math.abs(ratio - 0.512) < 1e-9);
  assert.deepEqual(enduranceBytes(1200e12, 2e12, rules), { bytes: 1200e12, assumed: false });
  assert.ok(Math.abs(wearLifeYears(600e12, 100e9)! - 600e12 / (100e9 * 365)) < 1e-9);
  assert.equal(wearLifeYears(600e12, 0), null);
});
