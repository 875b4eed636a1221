/**
 * Sparse candidates: large files that are not sparse but hold whole blocks of zeros are listed
 * with what punching would free (and the warning); files without zeros, small files and files
 * already sparse are not. Product defaults: 64 MB and up, 1 MB of zeros or more.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { sparseCandidates } from '../../app/core/space/sparse-candidates.js';
import { holeFile, randomFile } from '../helpers/space-files.js';

const MiB = 1024 * 1024;
const dir = mkdtempSync(path.join(tmpdir(), 'plumb-sparse-candidates-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Random data, then `zeroMiB` MiB of written (allocated) zeros, then random data again. */
function zeroFilled(file: string, zeroMiB: number, totalMiB: number): void {
  const fd = openSync(file, 'w');
  writeSync(fd, randomBytes(MiB));
  for (let i = 0; i < zeroMiB; i += 1) writeSync(fd, Buffer.alloc(MiB));
  for (let i = 1 + zeroMiB; i < totalMiB; i += 1) writeSync(fd, randomBytes(MiB));
  closeSync(fd);
}

test('large files with zero runs are listed with what punching frees; others are not', async () => {
  const zeros = randomInt(8, 40);
  const image = path.join(dir, 'disk.img');
  zeroFilled(image, zeros, 72);
  randomFile(path.join(dir, 'video.mov'), 70 * MiB); // no zeros
  zeroFilled(path.join(dir, 'small.img'), 20, 30); // below 64 MB
  holeFile(path.join(dir, 'already-sparse.img'), 200 * MiB);
  const found = await sparseCandidates(dir);
  assert.deepEqual(
    found.candidates.map((c) => [path.basename(c.path), c.zeroBytes]),
    [['disk.img', zeros * MiB]],
  );
  assert.ok(found.candidates[0]!.allocatedBytes >= 72 * MiB);
  assert.match(found.warning, /rewrite it in full/);

  const cli = spawnSync(
    process.execPath,
    [
      path.resolve(import.meta.dirname, '../../bin/plumb.js'),
      'space',
      'sparse',
      dir,
      '--candidates',
    ],
    { encoding: 'utf8' },
  );
  assert.equal(cli.status, 0, cli.stderr);
  assert.match(cli.stdout, /disk\.img: punching its zero blocks would free \d/);
  assert.match(cli.stdout, /Note: Holes save space only while/);
});
