/**
 * widenPipe, which `plumb space scan --json` calls on its standard output: a pipe is let hold
 * 1 MiB (its reader then takes the 276 MB of a million-file rescan in 1 MiB handoffs); anything
 * else is left alone and answers 0; a descriptor that is not a whole number is a TypeError.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { loadNative } from '../../app/core/native/load.js';

const base = mkdtempSync(path.join(tmpdir(), 'plumb-widen-pipe-'));
after(() => rmSync(base, { recursive: true, force: true }));

test(
  'a pipe is let hold 1 MiB; a file is left alone',
  { skip: process.platform !== 'linux' ? 'pipe sizes are set on Linux only' : undefined },
  () => {
    const fifo = path.join(base, 'fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
    // Opened for reading and writing, a FIFO opens at once (Linux) and is a pipe like stdout's.
    const pipe = openSync(fifo, constants.O_RDWR);
    const file = path.join(base, 'file');
    writeFileSync(file, 'text');
    const regular = openSync(file, 'r');
    try {
      assert.equal(loadNative().widenPipe(pipe), 1 << 20);
      assert.equal(loadNative().widenPipe(pipe), 1 << 20, 'a second call leaves it as it is');
      assert.equal(loadNative().widenPipe(regular), 0);
    } finally {
      closeSync(pipe);
      closeSync(regular);
    }
  },
);

test('a descriptor that is not a whole number is a TypeError', () => {
  for (const fd of [-1, 1.5, Number.NaN, '1', undefined]) {
    assert.throws(() => loadNative().widenPipe(fd as number), TypeError, String(fd));
  }
});
