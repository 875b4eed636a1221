import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { PlumbError, toErrorPayload } from '../../app/contract/errors.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-error-words-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function failure(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to fail');
}

test('system errors reach the user in words with what to do, their code kept', async () => {
  const existing = path.join(dir, 'there.img');
  writeFileSync(existing, 'x');
  const exists = toErrorPayload(await failure(() => open(existing, 'wx')));
  assert.equal(exists.code, 'EEXIST');
  assert.equal(
    exists.message,
    `${existing} already exists. Choose another name, or move that one away first.`,
  );
  const missing = path.join(dir, 'gone', 'file');
  const gone = toErrorPayload(await failure(() => readFile(missing)));
  assert.equal(gone.code, 'ENOENT');
  assert.match(gone.message, /does not exist \(any more\)\. Check the path, or choose another\.$/);
  assert.ok(gone.message.startsWith(missing));
  const folder = toErrorPayload(await failure(() => readFile(dir)));
  assert.equal(folder.code, 'EISDIR');
  assert.doesNotMatch(folder.message, /EISDIR|illegal operation/);
});

test("Plumb's own sentences and unknown codes pass through as they are", () => {
  const own = new PlumbError('ENOENT', 'No such folder: /x. Check the path and try again.');
  assert.deepEqual(toErrorPayload(own), { code: 'ENOENT', message: own.message });
  const odd = Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' });
  assert.equal(toErrorPayload(odd).message, odd.message);
  assert.deepEqual(toErrorPayload('boom'), { code: 'EINTERNAL', message: 'boom' });
});
