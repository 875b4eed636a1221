import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  dataBytes,
  holeMapLabel,
  holeMapSegments,
  sparseSaving,
} from '../../../renderer/src/screens/space/hole-map.js';

const MiB = 1024 * 1024;

test('data ranges become fractions of the bar; holes are the gaps', () => {
  const segments = holeMapSegments({
    logicalBytes: 100 * MiB,
    data: [
      { offset: 50 * MiB, length: 25 * MiB },
      { offset: 0, length: 10 * MiB },
    ],
  });
  assert.deepEqual(segments, [
    { start: 0, width: 0.1 },
    { start: 0.5, width: 0.25 },
  ]);
});

test('ranges closer than the resolution merge, so a fragmented file stays drawable', () => {
  const data = Array.from({ length: 10_000 }, (_, i) => ({ offset: i * 8192, length: 4096 }));
  const segments = holeMapSegments({ logicalBytes: 10_000 * 8192, data }, 100);
  assert.equal(segments.length, 1);
  assert.equal(segments[0]!.start, 0);
  // A data range running past the end is clipped to the file.
  assert.deepEqual(holeMapSegments({ logicalBytes: 1000, data: [{ offset: 500, length: 900 }] }), [
    { start: 0.5, width: 0.5 },
  ]);
  assert.deepEqual(holeMapSegments({ logicalBytes: 0, data: [] }), []);
});

test('the label says how much is data and how much is holes', () => {
  const file = {
    path: '/d/disk.img',
    logicalBytes: 4_000_000,
    allocatedBytes: 1_000_000,
    holesSupported: true,
    data: [{ offset: 0, length: 1_000_000 }],
  };
  assert.equal(dataBytes(file), 1_000_000);
  assert.equal(sparseSaving(file), 3_000_000);
  assert.equal(
    holeMapLabel(file),
    '1 data range holding 1.00 MB; holes 3.00 MB (75 % of the file)',
  );
  assert.match(holeMapLabel({ ...file, holesSupported: false }), /does not report holes/);
  assert.equal(sparseSaving({ logicalBytes: 10, allocatedBytes: 4096 }), 0);
});
