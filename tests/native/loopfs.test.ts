import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
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

test('file systems a killed test process left are removed by the next mount', async (t) => {
  const reason = loopSkipReason('ext4');
  if (reason) return t.skip(reason);
  // A test process that mounts a loop file system and a tmpfs, says where, and is killed.
  const helper = path.join(import.meta.dirname, '..', 'helpers', 'loopfs.ts');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { mountLoopFs, mountTmpfs } = await import(${JSON.stringify(helper)});
       const loop = mountLoopFs('ext4', { sizeBytes: 64 * 1024 * 1024 });
       const tmp = mountTmpfs(8 * 1024 * 1024);
       console.log(JSON.stringify({ loop: loop.dir, device: loop.device, tmp: tmp.dir }));
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const left = await new Promise<{ loop: string; device: string; tmp: string }>((resolve) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(JSON.parse(out));
    });
  });
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  assert.equal(fsTypeOf(left.loop), 'ext4', 'the killed process left its loop mount');
  assert.equal(fsTypeOf(left.tmp), 'tmpfs', 'and its tmpfs');

  const fs = mountTmpfs(8 * 1024 * 1024);
  fs.unmount();
  assert.equal(existsSync(path.dirname(left.loop)), false, 'the loop mount and its image went');
  assert.equal(existsSync(left.tmp), false, 'the tmpfs went');
  const attached = execFileSync('losetup', ['-a'], { encoding: 'utf8' });
  assert.equal(attached.includes(`${left.device}:`), false, `${left.device} still attached`);
});
