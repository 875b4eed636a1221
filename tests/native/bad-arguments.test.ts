import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const fixture = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'fuzz-arguments.ts',
);

test('10,000 calls with random bad arguments never crash the process', () => {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fixture, '10000', '7'], {
    encoding: 'utf8',
    timeout: 240_000,
  });
  assert.equal(child.signal, null, `the child died of ${child.signal}: ${child.stderr}`);
  assert.equal(child.status, 0, child.stderr);
  const summary = JSON.parse(child.stdout) as {
    calls: number;
    typeErrors: number;
    otherThrows: number;
    rejected: number;
    uncoded: string[];
  };
  assert.equal(summary.calls, 10000);
  assert.ok(summary.typeErrors > 5000, `only ${summary.typeErrors} TypeErrors`);
  // Synchronous failures are TypeErrors; the rest reject with coded errors like node:fs.
  assert.equal(summary.otherThrows, 0);
  assert.deepEqual(summary.uncoded, []);
});
