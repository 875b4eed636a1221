import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  allCrossovers,
  curveEnd,
  crossoversOf,
  secondsAt,
  timeCurve,
} from '../../../app/core/planner/crossover.js';

const tb5 = timeCurve(
  { inCacheBytesPerSecond: 5.5e9, afterCacheBytesPerSecond: 1.4e9 },
  50e9,
  200e9,
);
const usb4 = timeCurve(
  { inCacheBytesPerSecond: 3.7e9, afterCacheBytesPerSecond: 3.7e9 },
  null,
  200e9,
);

test('a time curve has its corner at the cache size and is exact between corners', () => {
  assert.deepEqual(
    tb5.map(([x]) => x),
    [0, 50e9, 200e9],
  );
  assert.ok(Math.abs(secondsAt(tb5, 100e9) - 44.805194805) < 1e-6);
  assert.ok(Math.abs(secondsAt(usb4, 100e9) - 27.027027027) < 1e-6);
  assert.equal(secondsAt(tb5, 0), 0);
});

test('the TB5 and USB4 curves cross once, where the bigger cache starts to win', () => {
  const [crossing, ...rest] = crossoversOf(tb5, usb4, 0, 1);
  assert.equal(rest.length, 0);
  assert.equal(crossing!.fasterBelow, 0);
  assert.equal(crossing!.fasterAbove, 1);
  assert.ok(Math.abs(secondsAt(tb5, crossing!.bytes) - secondsAt(usb4, crossing!.bytes)) < 1e-9);
  assert.ok(crossing!.bytes > 50e9 && crossing!.bytes < 61e9);
});

test('a curve that is faster everywhere never crosses; identical curves do not cross', () => {
  const internal = timeCurve(
    { inCacheBytesPerSecond: 7.69e9, afterCacheBytesPerSecond: 7.69e9 },
    null,
    200e9,
  );
  assert.deepEqual(crossoversOf(internal, tb5, 0, 1), []);
  assert.deepEqual(crossoversOf(tb5, tb5, 0, 1), []);
});

test('a small fast cache against a steady link crosses where the times are equal', () => {
  // A small, very fast cache then a crawl, against a steady 2 GB/s.
  const steady = timeCurve(
    { inCacheBytesPerSecond: 2e9, afterCacheBytesPerSecond: 2e9 },
    null,
    200e9,
  );
  const early = timeCurve(
    { inCacheBytesPerSecond: 4e9, afterCacheBytesPerSecond: 1e9 },
    20e9,
    200e9,
  );
  const [crossing] = crossoversOf(early, steady, 0, 1);
  // early: 5 s at 20 GB, then 1 GB/s; steady: x / 2. Equal at 5 + (x - 20) = x / 2 → x = 30 GB.
  assert.ok(Math.abs(crossing!.bytes - 30e9) < 1);
  assert.ok(Math.abs(crossing!.seconds - 15) < 1e-9);
  assert.equal(crossing!.fasterBelow, 0);
});

test('allCrossovers lists every pair, smallest size first', () => {
  const tb3 = timeCurve(
    { inCacheBytesPerSecond: 2.3e9, afterCacheBytesPerSecond: 0.65e9 },
    23.9e9,
    200e9,
  );
  const found = allCrossovers([
    { index: 0, curve: tb5 },
    { index: 1, curve: usb4 },
    { index: 2, curve: tb3 },
  ]);
  assert.ok(found.length >= 1);
  for (let i = 1; i < found.length; i += 1) assert.ok(found[i - 1]!.bytes <= found[i]!.bytes);
});

test('a curve stops where its disk is full, and nothing crosses beyond the shorter one', () => {
  // A slow disk with 80 GB free against a fast one with room: they would cross at 30 GB if the
  // slow one could hold everything, and a slower, roomy disk would "overtake" past 80 GB.
  const small = timeCurve(
    { inCacheBytesPerSecond: 4e9, afterCacheBytesPerSecond: 1e9 },
    20e9,
    200e9,
    80e9,
  );
  assert.deepEqual(
    small.map(([x]) => x),
    [0, 20e9, 80e9],
  );
  assert.equal(curveEnd(small), 80e9);
  const roomy = timeCurve(
    { inCacheBytesPerSecond: 2e9, afterCacheBytesPerSecond: 2e9 },
    null,
    200e9,
    1e12,
  );
  assert.equal(curveEnd(roomy), 200e9);
  const found = crossoversOf(small, roomy, 0, 1);
  assert.equal(found.length, 1);
  assert.ok(Math.abs(found[0]!.bytes - 30e9) < 1);
  // Full before its cache is: one straight stretch to the end.
  const tiny = timeCurve(
    { inCacheBytesPerSecond: 4e9, afterCacheBytesPerSecond: 1e9 },
    20e9,
    200e9,
    10e9,
  );
  assert.deepEqual(tiny, [
    [0, 0],
    [10e9, 2.5],
  ]);
  // Drawn at random: no crossover ever lies past either curve's end.
  let state = 12345;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 200; i += 1) {
    const curve = () =>
      timeCurve(
        {
          inCacheBytesPerSecond: 1e9 + 6e9 * random(),
          afterCacheBytesPerSecond: 0.2e9 + 2e9 * random(),
        },
        random() < 0.3 ? null : 200e9 * random(),
        200e9,
        250e9 * random(),
      );
    const a = curve();
    const b = curve();
    for (const c of crossoversOf(a, b, 0, 1))
      assert.ok(c.bytes <= Math.min(curveEnd(a), curveEnd(b)) + 1e-3, `draw ${i}`);
  }
});
