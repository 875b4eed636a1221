import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRequire } from 'node:module';
import type { NativeMemberStorage as MemberStorage, PlumbNative } from '../../native/index.js';

// The scan's sharing rule (native/src/scan/sharing.cc), through the addon.
const native = createRequire(import.meta.url)(
  '../../native/build/Release/plumb.node',
) as PlumbNative;
const groupSharing = (members: MemberStorage[]) => native.groupSharing(members);
const sweepExtents = (members: MemberStorage[]) => native.groupSharing(members, { sweep: true });

const block = 4096;
const file = (physical: number, blocks: number, shared = false): MemberStorage => ({
  allocatedBytes: blocks * block,
  extents: [{ physical: physical * block, length: blocks * block, shared }],
  cloneId: null,
  privateBytes: null,
});

test('separate copies: all but one copy is reclaimable, nothing already shared', () => {
  const result = groupSharing([file(0, 10), file(100, 10), file(200, 10)]);
  assert.equal(result.keeperIndex, 0);
  assert.equal(result.reclaimableBytes, 20 * block);
  assert.equal(result.sharedBytes, 0);
  assert.deepEqual(result.memberReclaimable, [0, 10 * block, 10 * block]);
  assert.deepEqual(result.memberAlreadyClone, [false, false, false]);
  assert.equal(result.note, null);
});

test('clones of each other free nothing', () => {
  const result = groupSharing([file(0, 10, true), file(0, 10, true)]);
  assert.equal(result.reclaimableBytes, 0);
  assert.equal(result.sharedBytes, 10 * block);
  assert.deepEqual(result.memberAlreadyClone, [false, true]);
});

test('two clones and one copy: the keeper is a clone, only the copy is reclaimable', () => {
  // The copy comes first in preference order, but keeping it would move two files for the same gain.
  const result = groupSharing([file(500, 8), file(0, 8, true), file(0, 8, true)]);
  assert.equal(result.reclaimableBytes, 8 * block);
  assert.equal(result.sharedBytes, 8 * block);
  const keeper = result.keeperIndex;
  assert.equal(result.memberReclaimable[keeper], 0);
});

test('blocks shared with a file outside the group are not reclaimable, and say so', () => {
  const result = groupSharing([file(0, 4), file(100, 4, true)]);
  // Member 1's blocks are flagged shared but no member here references them: a clone elsewhere.
  assert.equal(result.keeperIndex, 1);
  assert.equal(result.reclaimableBytes, 4 * block);
  const keepFirst = groupSharing([file(0, 4, true), file(100, 4, true)]);
  assert.equal(keepFirst.reclaimableBytes, 0);
  assert.match(keepFirst.note ?? '', /outside this group/);
});

test('partly shared copies: only the private part is reclaimable', () => {
  const a: MemberStorage = {
    allocatedBytes: 8 * block,
    extents: [{ physical: 0, length: 8 * block, shared: true }],
    cloneId: null,
    privateBytes: null,
  };
  const b: MemberStorage = {
    allocatedBytes: 8 * block,
    extents: [
      { physical: 0, length: 4 * block, shared: true },
      { physical: 50 * block, length: 4 * block, shared: false },
    ],
    cloneId: null,
    privateBytes: null,
  };
  const result = groupSharing([a, b]);
  assert.equal(result.reclaimableBytes, 4 * block);
  assert.equal(result.sharedBytes, 4 * block);
});

test('without extents or clone facts everything is unknown, never zero', () => {
  const unknown: MemberStorage = {
    allocatedBytes: 100,
    extents: null,
    cloneId: null,
    privateBytes: null,
  };
  const result = groupSharing([unknown, unknown]);
  assert.equal(result.reclaimableBytes, null);
  assert.equal(result.sharedBytes, null);
  assert.deepEqual(result.memberReclaimable, [0, null]);
  assert.ok(result.note);
});

test('macOS clone facts: same clone id frees nothing, private bytes are what a copy holds alone', () => {
  const mac = (cloneId: string | null, privateBytes: number | null): MemberStorage => ({
    allocatedBytes: 1000,
    extents: null,
    cloneId,
    privateBytes,
  });
  const result = groupSharing([mac(null, 1000), mac('7', 0), mac('7', 0)]);
  assert.equal(result.keeperIndex, 1);
  assert.deepEqual(result.memberReclaimable, [1000, 0, 0]);
  assert.equal(result.reclaimableBytes, 1000);
  assert.deepEqual(result.memberAlreadyClone, [false, false, true]);
  const partlyUnknown = groupSharing([mac(null, 1000), mac(null, null)]);
  assert.equal(partlyUnknown.reclaimableBytes, null);
});

test('plain copies are answered without the sweep, exactly as the sweep answers them', () => {
  // Small random groups on a small device, so that overlaps (clones), shared flags, empty and
  // touching extents all occur; every answer must equal the general sweep's.
  let state = 7;
  const random = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((state / 2 ** 31) * n);
  };
  let plain = 0;
  for (let round = 0; round < 3000; round += 1) {
    const members: MemberStorage[] = Array.from({ length: 2 + random(4) }, () => ({
      allocatedBytes: 0,
      extents: Array.from({ length: random(4) }, () => ({
        physical: random(64) * block,
        length: random(6) * block,
        shared: random(8) === 0,
      })),
      cloneId: null,
      privateBytes: null,
    }));
    const ranges = members.flatMap((m) => m.extents!.filter((e) => e.length > 0));
    const separate =
      !ranges.some((e) => e.shared) &&
      ranges.every((a, i) =>
        ranges.every(
          (b, j) =>
            i === j || a.physical + a.length <= b.physical || b.physical + b.length <= a.physical,
        ),
      );
    if (separate) plain += 1;
    assert.deepEqual(groupSharing(members), sweepExtents(members), `round ${round}`);
  }
  // Both paths were taken often.
  assert.ok(plain > 300 && plain < 2700, `plain groups: ${plain}`);
});

test('bad members are TypeErrors', () => {
  const bad = native.groupSharing as unknown as (...args: unknown[]) => unknown;
  assert.throws(() => bad(), TypeError);
  assert.throws(() => bad([1]), TypeError);
  assert.throws(() => bad([{ ...file(0, 1), allocatedBytes: -1 }]), TypeError);
  assert.throws(() => bad([{ ...file(0, 1), extents: [{ physical: 1.5, length: 1 }] }]), TypeError);
  assert.throws(() => bad([{ ...file(0, 1), cloneId: 7 }]), TypeError);
  assert.throws(() => bad([{ ...file(0, 1), extents: null }], { sweep: true }), TypeError);
  assert.deepEqual(native.groupSharing([]).memberReclaimable, []);
});
