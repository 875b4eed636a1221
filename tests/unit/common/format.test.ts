import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  formatDuration,
  formatIops,
  formatLatency,
  formatRate,
} from '../../../app/common/format.js';
import { parseSizeInput } from '../../../app/common/units.js';

test('rates read in decimal units per second, and a missing rate as a dash', () => {
  assert.equal(formatRate(5.5e9), '5.50 GB/s');
  assert.equal(formatRate(850e6), '850 MB/s');
  assert.equal(formatRate(null), '—');
  assert.equal(formatRate(Number.NaN), '—');
});

test('durations keep the two largest units', () => {
  assert.equal(formatDuration(4.25), '4.3 s');
  assert.equal(formatDuration(42), '42 s');
  assert.equal(formatDuration(250), '4 min 10 s');
  assert.equal(formatDuration(240), '4 min');
  assert.equal(formatDuration(3900), '1 h 05 min');
  assert.equal(formatDuration(-1), '—');
});

test('latency picks µs, ms or s', () => {
  assert.equal(formatLatency(85e-6), '85.0 µs');
  assert.equal(formatLatency(0.0012), '1.20 ms');
  assert.equal(formatLatency(2.5), '2.50 s');
  assert.equal(formatLatency(null), '—');
});

test('IOPS are grouped', () => {
  assert.equal(formatIops(950), '950 IOPS');
  assert.equal(formatIops(285_000), '285 k IOPS');
  assert.equal(formatIops(1_250_000), '1.25 M IOPS');
});

test('typed sizes accept decimal and binary units, and nothing else', () => {
  assert.equal(parseSizeInput('512MB'), 512e6);
  assert.equal(parseSizeInput(' 8 GiB '), 8 * 1024 ** 3);
  assert.equal(parseSizeInput('1.5g'), 1.5e9);
  assert.equal(parseSizeInput('lots'), null);
  assert.equal(parseSizeInput('0'), null);
  assert.equal(parseSizeInput('5 XB'), null);
});
