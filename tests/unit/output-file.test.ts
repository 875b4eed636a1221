/**
 * The output writer's edges that the CLI tests cannot time: waiting for a FIFO's reader can be
 * cancelled, a reader that leaves early is an error that says so, and a character device
 * (/dev/null) is written in place.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { writeOutput } from '../../app/core/output-file.js';

describe(
  'writeOutput',
  { skip: process.platform === 'win32' ? 'FIFOs are POSIX' : undefined },
  () => {
    let dir: string;
    const stdout = new PassThrough();
    before(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-output-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    function fifo(name: string): string {
      const file = path.join(dir, name);
      assert.equal(spawnSync('mkfifo', [file]).status, 0, 'mkfifo');
      return file;
    }

    test('a FIFO nobody reads is waited for, and the wait is cancelled at once', async () => {
      const controller = new AbortController();
      const writing = writeOutput(fifo('unread'), 'data', { stdout, signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const cancelledAt = performance.now();
      controller.abort();
      await assert.rejects(writing, { code: 'ECANCELED' });
      assert.ok(performance.now() - cancelledAt < 500, 'the wait ended within 500 ms');
    });

    test('a reader that closes the FIFO early is an EPIPE that says so', async () => {
      const file = fifo('early');
      // Reads one byte, then goes away with the rest unread.
      const reader = spawn('head', ['-c', '1', file], { stdio: 'ignore' });
      const big = Array.from({ length: 2000 }, () => 'x'.repeat(64 * 1024));
      await assert.rejects(
        writeOutput(file, big, { stdout }),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, 'EPIPE');
          assert.match(
            error.message,
            /The reader of .*early closed it before the output was complete\./,
          );
          return true;
        },
      );
      await new Promise((resolve) => reader.on('close', resolve));
      assert.ok(statSync(file).isFIFO());
    });

    test('a character device is written in place', async () => {
      await writeOutput('/dev/null', ['a', 'b'], { stdout });
      assert.ok(statSync('/dev/null').isCharacterDevice());
    });
  },
);
