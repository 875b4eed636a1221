/**
 * verifyFile and timedWrite's `stamp`: each 4 KiB block says which file and offset it is, and the
 * verifying read tells a right block from a moved, zeroed or changed one, at the right place.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { loadNative } from '../../app/core/native/load.js';

const native = loadNative();
const block = 4096;
let dir = '';

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'plumb-verify-native-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function patch(file: string, offset: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

function readAt(file: string, offset: number, length: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const out = Buffer.alloc(length);
    readSync(fd, out, 0, length, offset);
    return out;
  } finally {
    closeSync(fd);
  }
}

test('a stamped file reads back whole, still incompressible; a wrong id or run tag fails every block', async () => {
  const file = path.join(dir, 'good.dat');
  const bytes = randomInt(3, 9) * 1024 * 1024 + randomInt(33, block); // a short last block
  const runTag = randomInt(0, 2 ** 32);
  await native.timedWrite(file, bytes, { stamp: { fileId: 5, runTag } });
  const good = await native.verifyFile(file, 5, { runTag });
  assert.deepEqual(
    [good.bytes, good.checkedBytes, good.badBytes, good.badBlocks, good.firstBadOffset],
    [bytes, bytes, 0, 0, null],
  );
  const sample = readAt(file, 0, 1024 * 1024);
  assert.ok(deflateSync(sample).length > 0.99 * sample.length, 'the data stays incompressible');

  const otherFile = await native.verifyFile(file, 6, { runTag });
  assert.equal(otherFile.badBytes, bytes);
  assert.deepEqual(otherFile.firstBadFound, {
    kind: 'other-block',
    fileId: 5,
    offset: 0,
    sameRun: true,
  });
  const otherRun = await native.verifyFile(file, 5, { runTag: (runTag + 1) % 2 ** 32 });
  assert.equal(otherRun.firstBadFound?.sameRun, false);
});

test('moved, zeroed and changed blocks are found at their offset, counted by block', async () => {
  const a = path.join(dir, 'a.dat');
  const b = path.join(dir, 'b.dat');
  const bytes = 4 * 1024 * 1024;
  await native.timedWrite(a, bytes, { stamp: { fileId: 0, runTag: 9 } });
  await native.timedWrite(b, bytes, { stamp: { fileId: 1, runTag: 9 } });

  // A block of b copied over a's block k (what a wrapping drive returns).
  const k = randomInt(1, bytes / block - 3);
  const from = randomInt(0, bytes / block);
  patch(a, k * block, readAt(b, from * block, block));
  // Two later blocks zeroed, and one byte of the body of the block after them changed.
  patch(a, (k + 1) * block, Buffer.alloc(2 * block));
  const flip = (k + 3) * block + randomInt(32, block);
  patch(a, flip, Buffer.from([readAt(a, flip, 1)[0]! ^ 0x01]));

  const result = await native.verifyFile(a, 0, { runTag: 9 });
  assert.equal(result.firstBadOffset, k * block);
  assert.deepEqual(result.firstBadFound, {
    kind: 'other-block',
    fileId: 1,
    offset: from * block,
    sameRun: true,
  });
  assert.equal(result.badBlocks, 4);
  assert.equal(result.badBytes, 4 * block);

  patch(a, k * block, Buffer.alloc(block));
  assert.equal((await native.verifyFile(a, 0, { runTag: 9 })).firstBadFound?.kind, 'zeros');
  const header = k * block;
  patch(a, header, readAt(b, header, block)); // b's block, then one header byte of it changed
  patch(a, header + 20, Buffer.from([readAt(a, header + 20, 1)[0]! ^ 0x80]));
  assert.equal((await native.verifyFile(a, 0, { runTag: 9 })).firstBadFound?.kind, 'damaged');
});

test('verifyFile reports progress, cancels, and refuses bad arguments in words', async () => {
  const file = path.join(dir, 'progress.dat');
  await native.timedWrite(file, 8 * 1024 * 1024, { stamp: { fileId: 2 } });
  const cancel = native.createCancel();
  cancel.cancel();
  await assert.rejects(native.verifyFile(file, 2, { cancel }), { code: 'ECANCELED' });
  await assert.rejects(native.verifyFile(path.join(dir, 'missing.dat'), 2), { code: 'ENOENT' });
  assert.throws(() => native.verifyFile(file, -1), {
    name: 'TypeError',
    message: /"fileId" argument must be an integer/,
  });
  assert.throws(() => native.verifyFile(file, 2, { runTag: 2 ** 33 }), {
    name: 'TypeError',
    message: /"runTag" option/,
  });
  assert.throws(() => native.timedWrite(file, 10, { stamp: 3 as unknown as { fileId: number } }), {
    name: 'TypeError',
    message: /"stamp" option must be an object/,
  });
});
