import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { baseSeed } from '../helpers/synthetic-samples.js';

// Another program may put a FIFO where the scan listed a file, at any instant: the scan opens
// what it finds without waiting on it (it used to hang 2 times in 60, and the process could not
// exit). The swaps are drawn at random over the scan's duration, seeded.
const fixture = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'fifo-swap-scan.ts',
);
const runs = 60;

test(
  `${String(runs)} scans with FIFOs swapped in at random instants all finish`,
  { skip: process.platform === 'win32' ? 'no FIFOs on Windows' : undefined },
  () => {
    const seed = baseSeed();
    const root = mkdtempSync(path.join(tmpdir(), 'plumb-fifo-swap-'));
    try {
      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', fixture, root, String(runs), String(seed)],
        { encoding: 'utf8', timeout: 600_000, killSignal: 'SIGKILL' },
      );
      assert.equal(child.status, 0, `seed ${String(seed)}: ${child.stderr}`);
      const lines = child.stdout
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as {
              run: number;
              settled: boolean;
              outcome: { ok: boolean; unreadable?: number; code?: string } | null;
            },
        );
      assert.equal(lines.length, runs);
      const hung = lines.filter((line) => !line.settled).map((line) => line.run);
      assert.deepEqual(hung, [], `seed ${String(seed)}: scans that hung on a FIFO`);
      for (const line of lines) assert.equal(line.outcome?.ok, true, JSON.stringify(line));
      // The race was run: in many scans a file was a FIFO by the time its content was read.
      const metFifo = lines.filter((line) => (line.outcome?.unreadable ?? 0) > 0).length;
      console.log(`${String(metFifo)} of ${String(runs)} scans met a FIFO while reading`);
      assert.ok(metFifo >= runs / 6, `seed ${String(seed)}: only ${String(metFifo)} met a FIFO`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
);
