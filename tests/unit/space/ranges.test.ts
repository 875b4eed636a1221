import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  containsAll,
  coveredBytes,
  mergeRanges,
  segmentsByCover,
} from '../../../app/core/space/ranges.js';

test('mergeRanges sorts, joins overlapping and touching ranges, drops empty ones', () => {
  assert.deepEqual(
    mergeRanges([
      { start: 10, end: 20 },
      { start: 0, end: 5 },
      { start: 5, end: 7 },
      { start: 15, end: 30 },
      { start: 40, end: 40 },
    ]),
    [
      { start: 0, end: 7 },
      { start: 10, end: 30 },
    ],
  );
});

test('coveredBytes counts overlapping bytes once', () => {
  assert.equal(
    coveredBytes([
      { start: 0, end: 10 },
      { start: 5, end: 15 },
    ]),
    15,
  );
  assert.equal(coveredBytes([]), 0);
});

test('containsAll', () => {
  const outer = [
    { start: 0, end: 10 },
    { start: 20, end: 30 },
  ];
  assert.ok(
    containsAll(outer, [
      { start: 2, end: 8 },
      { start: 20, end: 30 },
    ]),
  );
  assert.ok(!containsAll(outer, [{ start: 8, end: 12 }]));
});

test('segmentsByCover cuts ranges into pieces labelled by who covers them', () => {
  const segments = segmentsByCover([
    { range: { start: 0, end: 10 }, label: 'a' },
    { range: { start: 5, end: 15 }, label: 'b' },
    { range: { start: 20, end: 25 }, label: 'c' },
  ]);
  assert.deepEqual(
    segments.map((s) => [s.range.start, s.range.end, [...s.labels].sort().join('')]),
    [
      [0, 5, 'a'],
      [5, 10, 'ab'],
      [10, 15, 'b'],
      [20, 25, 'c'],
    ],
  );
});
