/**
 * A punch is stopped by its cancel only before its first hole: while it reads the file for zeros
 * a cancel ends it with ECANCELED and the file as it was (content and allocation); its progress
 * is the bytes of data read.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { punchZeros } from '../../../app/core/space/sparse.js';

let dir: string;
let file: string;
/** 8 MiB: a block of ones, then zeros (what a punch would free), then ones. */
const content = Buffer.alloc(8 * 1024 * 1024);
content.fill(1, 0, 1024 * 1024);
content.fill(1, 7 * 1024 * 1024);

before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-punch-cancel-'));
  file = path.join(dir, 'zeros.bin');
  writeFileSync(file, content);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('a cancel while reading for zeros leaves the file as it was', async () => {
  const blocks = statSync(file).blocks;
  const controller = new AbortController();
  const reads: [number, number][] = [];
  await assert.rejects(
    punchZeros(file, true, {
      signal: controller.signal,
      onRead: (done, total) => {
        reads.push([done, total]);
        controller.abort(); // after the first chunk
      },
    }),
    { code: 'ECANCELED', message: 'Cancelled before any hole was made: the file is as it was.' },
  );
  assert.equal(reads.length, 1);
  assert.deepEqual(reads[0], [1024 * 1024, content.length]);
  assert.equal(statSync(file).blocks, blocks, 'no hole made');
  assert.ok(readFileSync(file).equals(content));
});

test('a cancel after the read (as the punch starts) makes no hole either', async () => {
  const blocks = statSync(file).blocks;
  const controller = new AbortController();
  let read = 0;
  await assert.rejects(
    punchZeros(file, true, {
      signal: controller.signal,
      onRead: (done, total) => {
        read = done;
        if (done === total) controller.abort();
      },
    }),
    { code: 'ECANCELED' },
  );
  assert.equal(read, content.length);
  assert.equal(statSync(file).blocks, blocks);
  assert.ok(readFileSync(file).equals(content));
});

test('without a cancel it punches the zeros, and the file reads the same', async () => {
  const report = await punchZeros(file, true);
  assert.equal(report.zeroBytes, 6 * 1024 * 1024);
  assert.ok(readFileSync(file).equals(content));
});
