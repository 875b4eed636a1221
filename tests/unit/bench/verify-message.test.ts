/** The verify finding in words: what came back, where, and how much. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VerifySection } from '../../../app/contract/bench-result.js';
import { verifyMessage } from '../../../app/core/bench/verify.js';

const base: Omit<VerifySection, 'message'> = {
  files: 20,
  filesNotChecked: 0,
  bytesChecked: 8e9,
  badBytes: 0,
  firstBad: null,
  verdict: 'passed',
  seconds: 12,
};

function failed(found: NonNullable<VerifySection['firstBad']>['found']) {
  return verifyMessage({
    ...base,
    badBytes: 4.9e9,
    verdict: 'failed',
    firstBad: { file: 'file-00000.dat', offset: 0, runOffset: 0, found },
  });
}

test('a good run says every byte came back, and which files could not be checked', () => {
  assert.equal(
    verifyMessage(base),
    'Every byte written was read back as written: 8.00 GB in 20 files, checked in 4 KiB blocks.',
  );
  assert.match(
    verifyMessage({ ...base, filesNotChecked: 3 }),
    / 3 files rotated out during the run could not be checked\.$/,
  );
});

test('a wrapping drive: the early place holds data written later, named with where it went', () => {
  const message = failed({
    kind: 'other-block',
    file: 'file-00017.dat',
    offset: 12e6,
    runOffset: 3.1e9,
    sameRun: true,
  });
  assert.match(
    message,
    /^Data written was not kept: from file-00000\.dat at 0 B \(0 B into the run\) on/,
  );
  assert.match(
    message,
    /data written later to another place \(file-00017\.dat at 12\.0 MB, 3\.10 GB into the run\)/,
  );
  assert.match(
    message,
    /as fake-capacity drives do\. 4\.90 GB of 8\.00 GB read back were wrong\.$/,
  );
});

test('zeros, changed blocks and an earlier run are told apart', () => {
  const none = { file: null, offset: null, runOffset: null };
  assert.match(failed({ kind: 'zeros', sameRun: false, ...none }), /the drive returned zeros/);
  assert.match(failed({ kind: 'damaged', sameRun: false, ...none }), /came back changed/);
  assert.match(
    failed({ kind: 'other-block', sameRun: false, ...none }),
    /returned data of an earlier run/,
  );
});
