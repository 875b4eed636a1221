// What the volume list shows at start-up on a Mac, for the disks Mac users test most: the bus, the
// file system and clone support, from diskutil and system_profiler output in Apple's documented
// formats (fixtures/mac-bus, README.md there names the document of each field).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { MountedVolume } from '../../app/contract/volumes.js';
import { interfaceCeilingForBus } from '../../app/core/analysis/interface-ceiling.js';
import { macVolumeFacts, parseDiskutilInfo, parsePlist } from '../../app/core/os/darwin/mac-bus.js';
import { freeSpaceText } from '../../renderer/src/ui/free-space.js';
import { sharedSpaceText, spaceSiblings } from '../../renderer/src/screens/volumes/shared-space.js';

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
    facts: {
      bus: 'apple fabric (apple m1)',
      internal: true,
      medium: 'ssd',
      fsType: 'apfs',
      container: 'disk3',
    },
    clones: true,
    ceiling: 'apple-internal-base',
  },
  'tb5-ssd': {
    facts: {
      bus: 'thunderbolt 5',
      internal: false,
      medium: 'ssd',
      fsType: 'apfs',
      container: 'disk5',
    },
    clones: true,
    ceiling: 'tb5',
  },
  'usb32-ssd': {
    facts: {
      bus: 'usb 3.2 gen 2',
      internal: false,
      medium: 'ssd',
      fsType: 'apfs',
      container: 'disk7',
    },
    clones: true,
    ceiling: 'usb3-gen2',
  },
  'sata-over-usb': {
    facts: {
      bus: 'sata over usb 3.2 gen 1',
      internal: false,
      medium: 'ssd',
      fsType: 'hfs',
      container: null,
    },
    clones: false,
    ceiling: 'usb3-gen1',
  },
  'usb3-stick': {
    facts: {
      bus: 'usb 3.2 gen 1',
      internal: false,
      medium: null,
      fsType: 'exfat',
      container: null,
    },
    clones: false,
    ceiling: 'usb3-gen1',
  },
  'sd-card': {
    facts: { bus: 'sd', internal: false, medium: 'ssd', fsType: 'msdos', container: null },
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
        container: 'disk5',
      });
      assert.equal(interfaceCeilingForBus(facts.bus)?.id, 'usb4');
    }
  });

  it('the Volumes list says the two siblings share one free space, and the others do not', () => {
    /** A listed volume as listVolumes makes it: the sizes diskutil gives, the facts above. */
    const listed = (name: string, profiler: string, label: string): MountedVolume => {
      const info = parsePlist(read(`${name}.diskutil.plist`)) as Record<string, unknown>;
      const { facts } = sample(name, profiler);
      const total = Number(info.APFSContainerSize ?? info.TotalSize);
      const free = Number(info.APFSContainerFree ?? info.FreeSpace ?? 0);
      return {
        ...facts,
        name: label,
        path: String(info.MountPoint),
        mountPoint: String(info.MountPoint),
        device: `/dev/${String(info.DeviceIdentifier)}`,
        totalBytes: total,
        freeBytes: free,
        availableBytes: free,
        blockSize: 4096,
        directIoAlignment: 4096,
        supportsSparse: facts.fsType === 'apfs',
        rotational: facts.medium === null ? null : facts.medium === 'hdd',
        readOnly: false,
      };
    };
    const volumes = [
      listed('internal-m1', 'internal-m1', 'Macintosh HD'),
      listed('usb4-apfs-work', 'usb4-apfs', 'Work'),
      listed('usb3-stick', 'usb3-stick', 'STICK'),
      listed('usb4-apfs-archive', 'usb4-apfs', 'Archive'),
    ];
    // Both report the container's free space: shown twice, it would read as twice the space.
    assert.equal(freeSpaceText(volumes[1]!), freeSpaceText(volumes[3]!));
    const lines = spaceSiblings(volumes).map(sharedSpaceText);
    assert.deepEqual(lines, [
      null,
      'The same free space as Archive (one container): count it once.',
      null,
      'The same free space as Work (one container): count it once.',
    ]);
  });

  it('a file system diskutil does not name leaves clone support unknown, not "no"', () => {
    const disk = { ...sample('internal-m1').disk, fileSystem: null };
    const facts = macVolumeFacts(disk, {});
    assert.equal(facts.fsType, null);
    assert.equal(facts.supportsClones, null);
  });
});
