import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../../app/contract/bench-result.js';
import {
  ceilingOf,
  cliffMarks,
  decimationFor,
  rateByCumulative,
  rateBySize,
  thinPoints,
} from '../../../renderer/src/ui/result/series.js';
import { modelFiles } from './bench-fixtures.js';

const GB = 1e9;
const files = modelFiles({
  sizes: [4e9, 1e9, 2e9, 3e9, 5e9, 1e9],
  fastRate: 5.5 * GB,
  slowRate: 1.4 * GB,
  cacheBytes: 10e9,
  readRate: 6 * GB,
  latencySeconds: 0,
});

test('rate against cumulative bytes shows the step where the cache ran out', () => {
  const points = rateByCumulative(files, 'write');
  assert.deepEqual(
    points.map((p) => p.x),
    [4e9, 5e9, 7e9, 10e9, 15e9, 16e9],
  );
  assert.ok(points.slice(0, 4).every((p) => Math.abs(p.y - 5.5 * GB) < 1));
  assert.ok(points.slice(4).every((p) => Math.abs(p.y - 1.4 * GB) < 1));
});

test('rate against size is sorted by size and keeps only the phase asked for', () => {
  const points = rateBySize(files, 'read');
  assert.equal(points.length, 6);
  assert.deepEqual(
    points.map((p) => p.x),
    [1e9, 1e9, 2e9, 3e9, 4e9, 5e9],
  );
  assert.ok(points.every((p) => Math.abs(p.y - 6 * GB) < 1));
});

test('a file with no measurable time is left out rather than drawn at infinity', () => {
  const points = rateBySize(
    [{ phase: 'write', bytes: 4096, seconds: 0, cumulativeBytes: 4096, t: 0, temperatureC: null }],
    'write',
  );
  assert.deepEqual(points, []);
});

test('thinning for a log axis keeps the lowest and highest rate of each bucket, in x order', () => {
  const points = Array.from({ length: 10_000 }, (_, i) => ({
    x: 1e4 * Math.pow(1e5, i / 9999),
    y: i % 2 === 0 ? 100 + (i % 7) : 50 - (i % 5),
  }));
  const thinned = thinPoints(points, 200, true);
  assert.ok(thinned.length <= 400 && thinned.length >= 200, `${thinned.length} points`);
  for (let i = 1; i < thinned.length; i += 1) assert.ok(thinned[i]!.x >= thinned[i - 1]!.x);
  assert.equal(Math.max(...thinned.map((p) => p.y)), 106);
  assert.equal(Math.min(...thinned.map((p) => p.y)), 46);
  const few = points.slice(0, 100);
  assert.deepEqual(thinPoints(few, 200, true), few);
});

test('decimation turns on, and dots shrink, as points grow', () => {
  assert.deepEqual(decimationFor(160), { enabled: false, pointRadius: 2.5 });
  assert.equal(decimationFor(1000).enabled, true);
  assert.equal(decimationFor(10_000).pointRadius, 0);
});

const findings: Finding[] = [
  {
    kind: 'cliff',
    phase: 'write',
    message: 'write rate fell',
    atBytes: 10e9,
    atSeconds: 1.8,
    beforeRate: 5.5 * GB,
    afterRate: 1.4 * GB,
    confidence: 0.9,
    cause: 'cache',
    reason: 'it fell after a fixed amount',
    recoverySeconds: 240,
  },
  {
    kind: 'exceeds-interface',
    phase: 'read',
    message: 'too fast',
    interface: 'USB4',
    ceilingRate: 3.8 * GB,
    count: 3,
    maxRate: 6 * GB,
  },
  {
    kind: 'exceeds-interface',
    phase: 'write',
    message: 'too fast',
    interface: 'USB 3.2 Gen 2',
    ceilingRate: 1 * GB,
    count: 1,
    maxRate: 5.5 * GB,
  },
];

test('the ceiling and the cliff come from the findings', () => {
  // Labelled by the ceiling the result records when it is the finding's, else by its id.
  const usb = { id: 'USB 3.2 Gen 2', label: 'USB 3.2 Gen 2 (10 Gb/s)', bytesPerSecond: 1 * GB };
  assert.deepEqual(ceilingOf({ findings, environment: { ceiling: usb } }), {
    rate: 1 * GB,
    label: 'USB 3.2 Gen 2 (10 Gb/s) ceiling',
  });
  assert.deepEqual(ceilingOf({ findings, environment: {} }), {
    rate: 1 * GB,
    label: 'USB 3.2 Gen 2 ceiling',
  });
  assert.equal(ceilingOf({ findings: [], environment: {} }), null);
  assert.deepEqual(cliffMarks(findings), [
    {
      phase: 'write',
      atBytes: 10e9,
      beforeRate: 5.5 * GB,
      afterRate: 1.4 * GB,
      label: 'Cache cliff',
    },
  ]);
});
