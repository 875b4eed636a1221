/** A capacity check's verdict in words: what held, what came back wrong and from where. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capacityVerdict, type CheckedBlocks } from '../../../app/common/capacity-check.js';

const passed: CheckedBlocks = {
  verdict: 'passed',
  bytesChecked: 62.1e9,
  badBytes: 0,
  firstBad: null,
};

test('a pass says how much was written and read back intact', () => {
  assert.equal(capacityVerdict(passed), 'Capacity checked: 62.1 GB written and read back intact.');
  assert.equal(
    capacityVerdict(passed, 63e9),
    'Capacity checked: 62.1 GB written and read back intact.',
    'all but a sliver of the allowance is the whole check',
  );
  assert.equal(
    capacityVerdict({ ...passed, bytesChecked: 0.63e9 }, 63e9),
    'Capacity checked: 630 MB written and read back intact. That is 1 % of the 63.0 GB that may be written here: check it all to prove the rest.',
  );
});

test('a failure says how much came back wrong, from where, and what that means', () => {
  const failed = (kind: 'other-block' | 'zeros' | 'damaged', sameRun = true): CheckedBlocks => ({
    verdict: 'failed',
    bytesChecked: 889e6,
    badBytes: 577e6,
    firstBad: { runOffset: 310e6, found: { kind, sameRun } },
  });
  assert.equal(
    capacityVerdict(failed('other-block')),
    'Capacity check failed: 577 MB of 889 MB read back wrong from 310 MB on: this drive stores less than it reports.',
  );
  assert.match(capacityVerdict(failed('zeros')), /did not keep what it was given/);
  const first = {
    ...failed('other-block'),
    firstBad: { runOffset: 0, found: { kind: 'other-block' as const, sameRun: true } },
  };
  assert.match(capacityVerdict(first), /read back wrong from the start: /);
  assert.match(capacityVerdict(failed('other-block', false)), /did not keep what it was given/);
  assert.match(capacityVerdict(failed('damaged')), /failing drive, cable or memory\.$/);
});
