import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { StartBenchInput } from '../../app/contract/bench.js';
import { ScanOptions } from '../../app/contract/space.js';
import { writeFileAtomic } from '../../app/core/atomic-file.js';

test('writeFileAtomic keeps its temporary 0600 until its data is complete, then gives the usual mode', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-atomic-'));
  try {
    const file = path.join(dir, 'result.json');
    const bytes = 256 << 20;
    // Modes seen on the temporary while it held less than all of the data.
    const modes = new Set<number>();
    let writing = true;
    const watcher = (async () => {
      while (writing) {
        for (const name of readdirSync(dir).filter((n) => n.endsWith('.tmp'))) {
          try {
            const info = statSync(path.join(dir, name));
            if (info.size < bytes) modes.add(info.mode & 0o777);
          } catch {
            // renamed meanwhile
          }
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await writeFileAtomic(file, Buffer.alloc(bytes, 1));
    writing = false;
    await watcher;
    assert.ok(modes.size > 0, 'never saw the temporary while it was written');
    assert.deepEqual([...modes], [0o600]);
    assert.equal(statSync(file).mode & 0o777, 0o666 & ~process.umask());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a path with a NUL byte from a front end gets a sentence, not Node’s argument error', () => {
  for (const parsed of [
    ScanOptions.safeParse({ path: '/tmp/a\0b' }),
    StartBenchInput.safeParse({ path: '/tmp/a\0b', plan: 'standard' }),
  ]) {
    assert.equal(parsed.success, false);
    assert.ok(
      parsed.error!.issues.some((issue) => issue.message === 'A path cannot contain a NUL byte.'),
      JSON.stringify(parsed.error!.issues),
    );
  }
});
