import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadNative } from '../../app/core/native/load.js';
import { pathCalls, pathlessExports } from './fixtures/path-calls.js';

// A FIFO blocks whoever opens it until another program opens its other end, and /dev/zero never
// ends: every addon function given one as a path answers within a second, and the special file
// is left where it was (timedWrite used to remove /dev/zero after failing to flush it).
const fixture = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'special-path-calls.ts',
);
const answerMs = 1000;

test('the table of path calls covers every export of the addon', () => {
  const native = loadNative() as unknown as Record<string, unknown>;
  const functions = Object.keys(native).filter((name) => typeof native[name] === 'function');
  const covered = new Set<string>([...pathCalls.map((c) => c.name), ...pathlessExports]);
  assert.deepEqual([...covered].sort(), functions.sort());
});

const kinds = [
  { kind: 'fifo', skip: process.platform === 'win32' ? 'no FIFOs on Windows' : undefined },
  { kind: 'socket', skip: process.platform === 'win32' ? 'no socket files here' : undefined },
  {
    kind: 'device',
    skip:
      process.platform !== 'linux'
        ? 'mknod of a character device is tested on Linux'
        : process.getuid?.() !== 0
          ? 'mknod needs root (CI runs as root)'
          : undefined,
  },
] as const;

for (const { kind, skip } of kinds) {
  test(`every path function answers a ${kind} within ${String(answerMs)} ms`, { skip }, () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'plumb-special-'));
    try {
      // In a child: a call that blocks for ever holds a thread the process would wait for at exit.
      const child = spawnSync(process.execPath, ['--import', 'tsx', fixture, kind, dir], {
        encoding: 'utf8',
        timeout: 60_000,
        killSignal: 'SIGKILL',
      });
      const lines = child.stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const answered = lines.filter((line) => !line.done);
      const hung = pathCalls[answered.length];
      assert.equal(
        answered.length,
        pathCalls.length,
        `${hung ? `${hung.name} (${hung.variant})` : '?'} never answered: ${child.stderr}`,
      );
      for (const [i, line] of answered.entries()) {
        const call = pathCalls[i]!;
        const what = `${call.name}(${call.variant} = ${kind})`;
        assert.equal(line.outcome, call.expect, what);
        assert.ok((line.ms as number) < answerMs, `${what} took ${String(line.ms)} ms`);
      }
      assert.deepEqual(lines.at(-1), { done: true, kind, same: true }, `the ${kind} was replaced`);
      assert.equal(child.status, 0, child.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
