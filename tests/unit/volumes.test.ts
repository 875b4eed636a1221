import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseProcMounts } from '../../app/core/os/linux.js';
import { volumeName } from '../../app/core/volumes.js';

const mounts = [
  'proc /proc proc rw,relatime 0 0',
  'devtmpfs /dev devtmpfs rw,relatime,size=12331664k 0 0',
  'tmpfs /dev/shm tmpfs rw,relatime 0 0',
  '/dev/vda / ext4 rw,relatime,discard 0 0',
  '/dev/nvme0n1p2 /mnt/Fast\\040Disk xfs rw 0 0',
  '/dev/vda /var/lib/docker ext4 rw 0 0',
  '/dev/loop3 /snap/core/1 squashfs ro 0 0',
  '/dev/sr0 /media/cdrom iso9660 ro 0 0',
  'server:/export /mnt/nfs nfs4 rw 0 0',
  '',
].join('\n');

test('only disk-backed mounts are listed, each device once, with escaped names decoded', () => {
  assert.deepEqual(parseProcMounts(mounts), [
    { device: '/dev/vda', mountPoint: '/', fsType: 'ext4' },
    { device: '/dev/nvme0n1p2', mountPoint: '/mnt/Fast Disk', fsType: 'xfs' },
  ]);
});

test('a volume is named by its mount point, the system volume by its role', () => {
  assert.equal(volumeName('/', 'linux'), 'System (/)');
  assert.equal(volumeName('/', 'darwin'), 'Macintosh HD');
  assert.equal(volumeName('/Volumes/Envoy Pro', 'darwin'), 'Envoy Pro');
  assert.equal(volumeName('D:\\', 'win32'), 'D:');
});
