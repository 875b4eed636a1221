// What the volume list shows at start-up on a Mac, for the disks Mac users test most: the bus, the
// file system and clone support, from diskutil and system_profiler output in Apple's documented
// formats (fixtures/mac-bus, README.md there names the document of each field).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { interfaceCeilingForBus } from '../../app/core/analysis/interface-ceiling.js';
import { macVolumeFacts, parseDiskutilInfo } from '../../app/core/os/darwin/mac-bus.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'mac-bus');
const read = (file: string) => readFileSync(path.join(fixtures, file), 'utf8');

/** The disk of `name`, and its facts with the system_profiler output of `profiler`. */
function sample(name: string, profiler = name) {
  const disk = parseDiskutilInfo(read(`${name}.diskutil.plist`));
  const facts = macVolumeFacts(
    disk,
    JSON.parse(read(`${profiler}.system_profiler.json`)) as Record<string, unknown>,
  );
  return { disk, facts };
}

// Each disk: what the list shows, and the interface ceiling its rates are checked against.
const expected = {
  'internal-m1': {
    facts: { bus: 'apple fabric (apple m1)', internal: true, medium: 'ssd', fsType: 'apfs' },
    clones: true,
    ceiling: 'apple-internal-base',
  },
  'tb5-ssd': {
    facts: { bus: 'thunderbolt 5', internal: false, medium: 'ssd', fsType: 'apfs' },
    clones: true,
    ceiling: 'tb5',
  },
  'usb32-ssd': {
    facts: { bus: 'usb 3.2 gen 2', internal: false, medium: 'ssd', fsType: 'apfs' },
    clones: true,
    ceiling: 'usb3-gen2',
  },
  'sata-over-usb': {
    facts: { bus: 'sata over usb 3.2 gen 1', internal: false, medium: 'ssd', fsType: 'hfs' },
    clones: false,
    ceiling: 'usb3-gen1',
  },
  'usb3-stick': {
    facts: { bus: 'usb 3.2 gen 1', internal: false, medium: null, fsType: 'exfat' },
    clones: false,
    ceiling: 'usb3-gen1',
  },
  'sd-card': {
    facts: { bus: 'sd', internal: false, medium: 'ssd', fsType: 'msdos' },
    clones: false,
    ceiling: undefined,
  },
} as const;

describe('Mac volume facts from diskutil and system_profiler', () => {
  it('every single-volume sample has its expected facts', () => {
    const samples = readdirSync(fixtures)
      .filter((file) => file.endsWith('.diskutil.plist') && !file.startsWith('usb4-apfs'))
      .map((file) => file.replace('.diskutil.plist', ''));
    assert.deepEqual(samples.sort(), Object.keys(expected).sort());
  });

  for (const [name, { facts, clones, ceiling }] of Object.entries(expected)) {
    it(`${name}: ${facts.bus}, ${facts.fsType}, clones ${clones ? 'yes' : 'no'}`, () => {
      const found = sample(name).facts;
      assert.deepEqual(found, { ...facts, supportsClones: clones });
      assert.equal(interfaceCeilingForBus(found.bus)?.id, ceiling);
    });
  }

  it('two APFS volumes in one container: the bus of its physical store, clones, one container', () => {
    const work = sample('usb4-apfs-work', 'usb4-apfs');
    const archive = sample('usb4-apfs-archive', 'usb4-apfs');
    for (const { disk, facts } of [work, archive]) {
      // The container disk5 is synthesized: the USB4 link is found through the store on disk4.
      assert.equal(disk.wholeDisk, 'disk5');
      assert.deepEqual(disk.physicalStores, ['disk4s2']);
      assert.deepEqual(facts, {
        bus: 'usb4 or thunderbolt 3/4 (40 gb/s)',
        internal: false,
        medium: 'ssd',
        fsType: 'apfs',
        supportsClones: true,
      });
      assert.equal(interfaceCeilingForBus(facts.bus)?.id, 'usb4');
    }
    // Siblings share their container's free space: the list can tell by the container.
    assert.equal(work.disk.container, 'disk5');
    assert.equal(archive.disk.container, work.disk.container);
  });

  it('a file system diskutil does not name leaves clone support unknown, not "no"', () => {
    const disk = { ...sample('internal-m1').disk, fileSystem: null };
    const facts = macVolumeFacts(disk, {});
    assert.equal(facts.fsType, null);
    assert.equal(facts.supportsClones, null);
  });
});
