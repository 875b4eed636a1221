// The volume facts the UI shows for the disks Windows users test most (the internal NVMe and SATA
// disks, an NVMe SSD in a Thunderbolt / USB4 enclosure, a USB stick, a ReFS Dev Drive), from
// reports written as Windows' documentation gives them
// (tests/windows/volume-fixtures/*.json name the document of each field), fed to the engine's own
// code (native/src/win/volume_facts.cc, built into describe-volume.exe by check-windows). Wine has
// none of these disks, so their reports are fixtures; the calls that fetch them run in engine.test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'volume-fixtures');
const describer = process.env.PLUMB_VOLUME_DESCRIBER;

// lpFileSystemFlags' constants, as GetVolumeInformationW's documentation lists them (winnt.h).
const fileSystemFlags = {
  FILE_CASE_SENSITIVE_SEARCH: 0x1,
  FILE_CASE_PRESERVED_NAMES: 0x2,
  FILE_UNICODE_ON_DISK: 0x4,
  FILE_PERSISTENT_ACLS: 0x8,
  FILE_FILE_COMPRESSION: 0x10,
  FILE_VOLUME_QUOTAS: 0x20,
  FILE_SUPPORTS_SPARSE_FILES: 0x40,
  FILE_SUPPORTS_REPARSE_POINTS: 0x80,
  FILE_SUPPORTS_OBJECT_IDS: 0x10000,
  FILE_SUPPORTS_ENCRYPTION: 0x20000,
  FILE_NAMED_STREAMS: 0x40000,
  FILE_READ_ONLY_VOLUME: 0x80000,
  FILE_SUPPORTS_TRANSACTIONS: 0x200000,
  FILE_SUPPORTS_HARD_LINKS: 0x400000,
  FILE_SUPPORTS_EXTENDED_ATTRIBUTES: 0x800000,
  FILE_SUPPORTS_OPEN_BY_FILE_ID: 0x1000000,
  FILE_SUPPORTS_USN_JOURNAL: 0x2000000,
  FILE_SUPPORTS_INTEGRITY_STREAMS: 0x4000000,
  FILE_SUPPORTS_BLOCK_REFCOUNTING: 0x8000000,
  FILE_SUPPORTS_SPARSE_VDL: 0x10000000,
};
// STORAGE_BUS_TYPE's numbers, which MSFT_PhysicalDisk's BusType shares, by Get-PhysicalDisk's name.
const busTypeNames = { 7: 'USB', 11: 'SATA', 12: 'SD', 13: 'MMC', 17: 'NVMe' };

describe('volume facts from documented reports', () => {
  const files = readdirSync(fixtures).filter((name) => name.endsWith('.json'));
  test('every disk the issue names has a fixture', () => {
    assert.deepEqual(files.sort(), [
      'dev-drive-refs.json',
      'nvme-ntfs.json',
      'sata-hdd-ntfs.json',
      'thunderbolt-nvme-ntfs.json',
      'usb-stick-exfat.json',
    ]);
  });

  test('an NVMe SSD in an enclosure reports what the internal one does but its removal', () => {
    const read = (file) => JSON.parse(readFileSync(path.join(fixtures, file), 'utf8'));
    const inside = read('nvme-ntfs.json');
    const enclosed = read('thunderbolt-nvme-ntfs.json');
    // Bus, medium and drive type alike: what tells them apart is hotplug and removal policy.
    for (const key of ['STORAGE_DEVICE_DESCRIPTOR', 'DEVICE_SEEK_PENALTY_DESCRIPTOR']) {
      assert.deepEqual(enclosed.report[key], inside.report[key]);
    }
    assert.deepEqual(enclosed.windowsTools['Get-Volume'], inside.windowsTools['Get-Volume']);
    assert.notEqual(enclosed.report.CM_DRP_REMOVAL_POLICY, inside.report.CM_DRP_REMOVAL_POLICY);
  });

  for (const file of files) {
    const fixture = JSON.parse(readFileSync(path.join(fixtures, file), 'utf8'));
    test(`${file}: ${fixture.about}`, (t) => {
      if (!describer) {
        t.skip('PLUMB_VOLUME_DESCRIBER (describe-volume.exe, built by check-windows) is not given');
        return;
      }
      const { report, windowsTools, shows } = fixture;
      const descriptor = report.STORAGE_DEVICE_DESCRIPTOR;
      // The fixture agrees with itself: Windows' own tools name the same bus and file system.
      assert.equal(busTypeNames[descriptor.BusType], windowsTools['Get-PhysicalDisk'].BusType);
      const volume = report.GetVolumeInformationW;
      assert.equal(volume.FileSystemName, windowsTools['Get-Volume'].FileSystemType);
      const flags = volume.FileSystemFlags.reduce((sum, name) => {
        assert.ok(name in fileSystemFlags, `${name} is not a GetVolumeInformationW flag`);
        return sum | fileSystemFlags[name];
      }, 0);
      const seek = report.DEVICE_SEEK_PENALTY_DESCRIPTOR;
      const hotplug = report.STORAGE_HOTPLUG_INFO;
      const policy = report.CM_DRP_REMOVAL_POLICY;
      assert.equal(policy, windowsTools['Get-PnpDeviceProperty'].DEVPKEY_Device_RemovalPolicy);
      // STORAGE_HOTPLUG_INFO's documentation: a hotplug device is one whose removal policy is
      // ExpectSurpriseRemoval (CM_REMOVAL_POLICY_EXPECT_SURPRISE_REMOVAL, 3).
      if (hotplug && policy !== null) assert.equal(hotplug.DeviceHotplug, policy === 3);
      const run = spawnSync(
        describer,
        [
          String(descriptor.BusType),
          descriptor.RemovableMedia ? '1' : '0',
          seek === null ? 'none' : seek.IncursSeekPenalty ? '1' : '0',
          hotplug === null
            ? 'none'
            : `${hotplug.MediaRemovable ? 1 : 0}${hotplug.DeviceHotplug ? 1 : 0}`,
          policy === null ? 'none' : String(policy),
          volume.FileSystemName,
          `0x${(flags >>> 0).toString(16)}`,
        ],
        { encoding: 'utf8', timeout: 60_000 },
      );
      assert.equal(run.status, 0, run.stderr || String(run.error));
      assert.deepEqual(JSON.parse(run.stdout), shows);
    });
  }
});
