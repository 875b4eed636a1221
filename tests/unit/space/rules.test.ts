import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultMethod } from '../../../app/core/space/dedupe.js';
import { zeroRuns } from '../../../app/core/space/sparse.js';
import { isSkippedFile, isSkippedFolder, looksSparse } from '../../../app/core/space/walk.js';

const defaults = { minBytes: 1, includeHidden: true, skipPackages: true, skipCloudFolders: true };

test('safe default skips: packages, Library, cloud folders, our own temporary clones', () => {
  for (const name of [
    'Photos Library.photoslibrary',
    'Safari.app',
    'Library',
    'Dropbox',
    'OneDrive - Acme',
  ]) {
    assert.ok(isSkippedFolder(name, defaults), name);
  }
  for (const name of ['Documents', 'src', '.git', 'apps'])
    assert.ok(!isSkippedFolder(name, defaults), name);
  assert.ok(isSkippedFile('.plumb-clone-1234', defaults));
  assert.ok(!isSkippedFile('.bashrc', defaults));
  const strict = {
    ...defaults,
    includeHidden: false,
    skipPackages: false,
    skipCloudFolders: false,
  };
  assert.ok(isSkippedFile('.bashrc', strict));
  assert.ok(isSkippedFolder('.cache', strict));
  assert.ok(!isSkippedFolder('Library', strict));
  assert.ok(!isSkippedFolder('Dropbox', strict));
});

test('looksSparse wants at least 64 KiB missing from the allocation', () => {
  assert.ok(looksSparse(10 << 20, 4096));
  assert.ok(!looksSparse(10 << 20, 10 << 20));
  assert.ok(!looksSparse(5000, 0));
});

test('zeroRuns finds whole zero blocks and joins neighbours', () => {
  const block = 4;
  const data = Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(zeroRuns(data, block, 100), [
    [100, 8],
    [112, 4],
  ]);
});

test('the default dedupe method: kernel-verified on Linux, clone and rename elsewhere', () => {
  assert.equal(defaultMethod('linux'), 'dedupe-range');
  assert.equal(defaultMethod('darwin'), 'clone-rename');
  assert.equal(defaultMethod('win32'), 'clone-rename');
});
