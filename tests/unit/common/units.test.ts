import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sizeArgument } from '../../../app/cli/command.js';
import { formatBytes, formatRate } from '../../../app/common/format.js';
import { parseSize } from '../../../app/common/units.js';

test('parseSize reads decimal and binary units', () => {
  assert.equal(parseSize('512MB'), 512e6);
  assert.equal(parseSize('8GiB'), 8 * 1024 ** 3);
  assert.equal(parseSize('1.5 GB'), 1.5e9);
  assert.equal(parseSize('100'), 100);
  assert.equal(parseSize('4k'), 4000);
});

test('parseSize refuses what it cannot read; on the command line that is a usage error', () => {
  for (const bad of ['', 'MB', '12 parsecs', '-5GB', '1e9']) {
    assert.equal(parseSize(bad), null, bad);
    assert.throws(() => sizeArgument(bad), { code: 'EUSAGE' }, bad);
  }
  assert.equal(sizeArgument('2TB'), 2e12);
});

test('formatBytes uses three significant figures in decimal units', () => {
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(999), '999 B');
  assert.equal(formatBytes(1500), '1.50 KB');
  assert.equal(formatBytes(84_414_402_560), '84.4 GB');
  assert.equal(formatBytes(5.5e9), '5.50 GB');
  assert.equal(formatRate(1.4e9), '1.40 GB/s');
  assert.equal(formatBytes(9_999_000), '10.0 MB');
  assert.equal(formatBytes(99_960), '100 KB');
  assert.equal(formatBytes(999_600), '1.00 MB');
});
