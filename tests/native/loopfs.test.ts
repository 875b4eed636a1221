import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loopSkipReason, mountLoopFs, mountTmpfs, tmpfsSkipReason } from '../helpers/loopfs.js';

function fsTypeOf(dir: string): string {
  return execFileSync('findmnt', ['-n', '-o', 'FSTYPE', '--target', dir], {
    encoding: 'utf8',
  }).trim();
}

test('an xfs loop mount is made, written, remounted read-only and fully torn down', (t) => {
  const reason = loopSkipReason('xfs');
  if (reason) return t.skip(reason);
  const fs = mountLoopFs('xfs', { sizeBytes: 320 * 1024 * 1024, mkfsArgs: ['-m', 'reflink=1'] });
  const device = fs.device;
  try {
    assert.equal(fsTypeOf(fs.dir), 'xfs');
    assert.match(device ?? '', /^\/dev\/loop\d+$/);
    writeFileSync(path.join(fs.dir, 'a'), 'hello');
    fs.remount(true);
    assert.throws(() => writeFileSync(path.join(fs.dir, 'b'), 'x'), { code: 'EROFS' });
    assert.equal(readFileSync(path.join(fs.dir, 'a'), 'utf8'), 'hello');
  } finally {
    fs.unmount();
    fs.unmount();
  }
  assert.equal(existsSync(fs.dir), false);
  const attached = execFileSync('losetup', ['-a'], { encoding: 'utf8' });
  assert.equal(attached.includes(`${device}:`), false, `${device} still attached`);
});

test('a tmpfs is mounted and removed', (t) => {
  const reason = tmpfsSkipReason();
  if (reason) return t.skip(reason);
  const fs = mountTmpfs(8 * 1024 * 1024);
  try {
    assert.equal(fsTypeOf(fs.dir), 'tmpfs');
  } finally {
    fs.unmount();
  }
  assert.equal(existsSync(fs.dir), false);
});
