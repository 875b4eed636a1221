import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ScanOptions } from '../../../app/contract/space.js';
import { scanSettings } from '../../../app/core/space/scan.js';

// scanSettings checks scan options without zod; it must agree with the contract's schema.
test('scanSettings applies the same defaults as the ScanOptions schema', () => {
  const inputs = [
    { path: '/a' },
    { path: '  /with spaces/  ' },
    { path: '/a', minBytes: 0, includeHidden: false },
    { path: '/a', minBytes: 4096, skipPackages: false, skipCloudFolders: false },
    { path: 'x'.repeat(4096) },
  ];
  for (const input of inputs) assert.deepEqual(scanSettings(input), ScanOptions.parse(input));
});

test('scanSettings refuses what the ScanOptions schema refuses', () => {
  const inputs: unknown[] = [
    { path: '' },
    { path: '   ' },
    { path: 'x'.repeat(4097) },
    { path: 7 },
    {},
    { path: '/a', minBytes: -1 },
    { path: '/a', minBytes: 1.5 },
    { path: '/a', minBytes: Number.MAX_SAFE_INTEGER + 1 },
    { path: '/a', minBytes: '5' },
    { path: '/a', includeHidden: 'yes' },
    { path: '/a', skipPackages: 1 },
  ];
  for (const input of inputs) {
    assert.equal(ScanOptions.safeParse(input).success, false, JSON.stringify(input));
    assert.throws(
      () => scanSettings(input as ScanOptions),
      (error: Error & { code?: string }) => error.code === 'EINVAL',
      JSON.stringify(input),
    );
  }
});
