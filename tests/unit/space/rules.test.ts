import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultMethod } from '../../../app/core/space/dedupe.js';
import { zeroRuns } from '../../../app/core/space/sparse.js';

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
