import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadNative } from '../../app/core/native/load.js';

const fixture = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'fuzz-arguments.ts',
);

test('12,000 calls with random bad arguments never crash the process', () => {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fixture, '12000', '7'], {
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
    callsOf: Record<string, number>;
  };
  assert.equal(summary.calls, 12000);
  // Every export, not a chosen few: the list comes from the addon itself.
  const exported = Object.keys(loadNative()).filter(
    (name) => typeof (loadNative() as unknown as Record<string, unknown>)[name] === 'function',
  );
  assert.ok(exported.length >= 23, `the addon exports ${String(exported.length)} functions`);
  assert.deepEqual(Object.keys(summary.callsOf).sort(), exported.sort());
  for (const [name, calls] of Object.entries(summary.callsOf)) {
    assert.ok(
      calls >= (['flushVolume', 'clockOverheadNanos'].includes(name) ? 30 : 300),
      `${name} was called ${String(calls)} times`,
    );
  }
  assert.ok(summary.typeErrors > 5000, `only ${summary.typeErrors} TypeErrors`);
  // Synchronous failures are TypeErrors; the rest reject with coded errors like node:fs.
  assert.equal(summary.otherThrows, 0);
  assert.deepEqual(summary.uncoded, []);
});
