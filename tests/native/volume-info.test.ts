import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { test } from 'node:test';
import { loadNative } from '../../app/core/native/load.js';
import { loopSkipReason, mountLoopFs, mountTmpfs, tmpfsSkipReason } from '../helpers/loopfs.js';

const native = loadNative();
const MiB = 1024 * 1024;

test('ext4 main disk: space, alignment, features and the device as sysfs describes it', async (t) => {
  const info = await native.volumeInfo(tmpdir());
  if (info.fsType !== 'ext4') return t.skip(`${tmpdir()} is ${info.fsType}, not ext4`);
  assert.ok(info.totalBytes > 0 && info.freeBytes <= info.totalBytes);
  assert.ok(info.availableBytes <= info.freeBytes);
  assert.ok(info.directIoAlignment !== null && [512, 4096].includes(info.directIoAlignment));
  assert.equal(info.supportsClones, false);
  assert.equal(info.supportsSparse, true);
  assert.equal(info.readOnly, false);
  assert.equal(typeof info.rotational, 'boolean');
  if (info.bus === 'virtio')
    assert.equal(info.medium, null, 'a virtual disk says nothing about media');
  else if (info.bus !== null) assert.ok(info.medium === 'ssd' || info.medium === 'hdd');
});

test('xfs: clones reported from the reflink feature, on and off', async (t) => {
  const reason = loopSkipReason('xfs');
  if (reason) return t.skip(reason);
  for (const reflink of [1, 0]) {
    const fs = mountLoopFs('xfs', { sizeBytes: 320 * MiB, mkfsArgs: ['-m', `reflink=${reflink}`] });
    try {
      const info = await native.volumeInfo(fs.dir);
      assert.equal(info.fsType, 'xfs');
      assert.equal(info.mountPoint, fs.dir);
      assert.equal(info.device, fs.device);
      assert.equal(info.supportsClones, reflink === 1);
      assert.equal(info.supportsSparse, true);
      assert.equal(info.directIoAlignment, 512);
      // A loop device is not a drive: no bus, medium or rotation to report.
      assert.equal(info.bus, null);
      assert.equal(info.rotational, null);
      fs.remount(true);
      assert.equal((await native.volumeInfo(fs.dir)).readOnly, true);
    } finally {
      fs.unmount();
    }
  }
});

test('btrfs: found though its st_dev is not in mountinfo, in a subvolume too', async (t) => {
  const reason = loopSkipReason('btrfs');
  if (reason) return t.skip(reason);
  const fs = mountLoopFs('btrfs', { sizeBytes: 320 * MiB });
  try {
    // A subvolume has an anonymous device number of its own, like the top level's.
    execFileSync('btrfs', ['subvolume', 'create', path.join(fs.dir, 'photos')], {
      stdio: 'ignore',
    });
    for (const dir of [fs.dir, path.join(fs.dir, 'photos')]) {
      const info = await native.volumeInfo(dir);
      assert.equal(info.fsType, 'btrfs', dir);
      assert.equal(info.mountPoint, fs.dir, dir);
      assert.equal(info.device, fs.device, dir);
      assert.equal(info.supportsClones, true, dir);
      assert.equal(info.supportsSparse, true, dir);
      assert.equal(info.directIoAlignment, 512, dir);
    }
  } finally {
    fs.unmount();
  }
});

test('tmpfs: no block device, so alignment and device facts are null', async (t) => {
  const reason = tmpfsSkipReason();
  if (reason) return t.skip(reason);
  const fs = mountTmpfs(8 * MiB);
  try {
    const info = await native.volumeInfo(fs.dir);
    assert.equal(info.fsType, 'tmpfs');
    assert.equal(info.totalBytes, 8 * MiB);
    assert.equal(info.directIoAlignment, null);
    assert.equal(info.rotational, null);
    assert.equal(info.bus, null);
    assert.equal(info.supportsClones, false);
  } finally {
    fs.unmount();
  }
});

test('driveTemperature is a plausible number or null, and errors like node:fs', async () => {
  const celsius = await native.driveTemperature(tmpdir());
  assert.ok(celsius === null || (celsius > -40 && celsius < 150), `${celsius}`);
  await assert.rejects(native.driveTemperature('/no/such/dir'), {
    code: 'ENOENT',
    syscall: 'realpath',
    path: '/no/such/dir',
  });
  await assert.rejects(native.volumeInfo('/no/such/dir'), { code: 'ENOENT', path: '/no/such/dir' });
});
