import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  fullOptionName,
  optionNameMaxLength,
  renamedForDisks,
  shortOptionName,
} from '../../../app/common/option-name.js';
import { defaultScenario } from '../../../app/core/planner/defaults.js';

const t7 = { name: 'Samsung T7 Shield 2 TB (USB 3.2 Gen 2)', interface: 'usb32g2' };
const tb5 = { name: 'Thunderbolt 5 SSD, 2 TB', interface: 'tb5' };

test('the two names Plumb gives an option', () => {
  assert.equal(shortOptionName({ internalCapacity: 512e9, external: tb5 }), '512 GB + TB5 SSD');
  assert.equal(shortOptionName({ internalCapacity: 2e12 }), '2 TB internal');
  assert.equal(
    fullOptionName({ internalCapacity: 1e12, external: t7 }),
    '1 TB internal + Samsung T7 Shield 2 TB (USB 3.2 Gen 2)',
  );
  // A measured disk with no named bus keeps its own name.
  assert.equal(
    shortOptionName({
      internalCapacity: 512e9,
      external: { name: 'My disk', interface: 'measured' },
    }),
    '512 GB + My disk',
  );
});

test('a name made from a long device name fits the scenario (80 characters)', () => {
  // A measured disk is named by its run: "Standard plan on /Volumes/…, 27 Nov 2026 (Quick run (1 %))".
  const measured = {
    name: `Standard plan on /Volumes/${'x'.repeat(90)} (Quick run (1 %))`,
    interface: 'measured',
  };
  for (const name of [
    shortOptionName({ internalCapacity: 512e9, external: measured }),
    fullOptionName({ internalCapacity: 512e9, external: measured }),
  ]) {
    assert.equal(name.length, optionNameMaxLength);
    assert.ok(name.startsWith('512 GB') && name.endsWith('…'), name);
  }
});

test('a name Plumb gave follows the disks, in its own form; a typed name stays', () => {
  const before = { internalCapacity: 512e9, external: tb5 };
  const after = { internalCapacity: 512e9, external: t7 };
  assert.equal(renamedForDisks('512 GB + TB5 SSD', before, after), '512 GB + USB 3.2 SSD');
  assert.equal(
    renamedForDisks(fullOptionName(before), before, after),
    '512 GB internal + Samsung T7 Shield 2 TB (USB 3.2 Gen 2)',
  );
  assert.equal(renamedForDisks('Travel', before, after), 'Travel');
  assert.equal(renamedForDisks(undefined, before, after), undefined);
  assert.equal(
    renamedForDisks('512 GB + TB5 SSD', before, { internalCapacity: 1e12 }),
    '1 TB internal',
  );
});

test('the built-in options are named by the same rule, so they follow their disks', () => {
  for (const platform of ['darwin', 'win32'] as const) {
    const { scenario } = defaultScenario({
      platform,
      arch: 'arm64',
      usedBytes: null,
      measured: [],
    });
    const links = [undefined, 'tb5', 'usb4', 'usb32g2'];
    scenario.options.forEach((option, i) => {
      const external = links[i] ? { name: '', interface: links[i]! } : undefined;
      assert.equal(
        option.name,
        shortOptionName({ internalCapacity: Number(option.internalCapacity), external }),
      );
    });
  }
});
