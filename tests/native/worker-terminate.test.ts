import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../app/core/bench/seeded-random.js';
import { addonCandidates, loadNative } from '../../app/core/native/load.js';
import { baseSeed } from '../helpers/synthetic-samples.js';

// A worker thread may be terminated in the middle of any call (worker.terminate()): the addon
// outlives its environment's teardown. Terminating one used to end the whole process (SIGABRT in
// scanFolder, timedWrite, queueDepthRun, listFolders; SIGSEGV in hashFiles). Each asynchronous
// function is called in a worker that is terminated at random instants (seeded); the process must
// live, and the function must answer as before, in a new worker and on the main thread.
const here = path.dirname(fileURLToPath(import.meta.url));
const rounds = 12;
// The functions that answer at once, on the calling thread: nothing to terminate in the middle of.
const synchronous = new Set([
  'createCancel',
  'clockOverheadNanos',
  'hashBytes',
  'groupSharing',
  'widenPipe',
]);

test(`each async function survives ${String(rounds)} worker terminations at random instants`, () => {
  const seed = baseSeed();
  const random = seededRandom(seed);
  const native = loadNative() as unknown as Record<string, unknown>;
  const names = Object.keys(native)
    .filter((name) => typeof native[name] === 'function')
    .filter((name) => !synchronous.has(name))
    .sort();
  assert.ok(names.length >= 23, names.join());
  // From the start of a call (its arguments still being read) to well inside most of them.
  const delaysMs = names.map(() => Array.from({ length: rounds }, () => random() * 150));
  const dir = mkdtempSync(path.join(tmpdir(), 'plumb-terminate-'));
  try {
    const planFile = path.join(dir, 'plan.json');
    writeFileSync(planFile, JSON.stringify({ names, delaysMs }));
    const addon = addonCandidates(path.join(here, '..', '..', 'app', 'core', 'native')).find(
      (candidate) => existsSync(candidate),
    )!;
    const work = path.join(dir, 'work');
    const child = spawnSync(
      process.execPath,
      [path.join(here, 'fixtures', 'terminate-rounds.mjs'), work, addon, planFile],
      { encoding: 'utf8', timeout: 900_000, killSignal: 'SIGKILL', cwd: dir },
    );
    const where = `seed ${String(seed)}`;
    assert.equal(child.signal, null, `${where}: the process died of ${String(child.signal)}`);
    assert.equal(child.status, 0, `${where}: ${child.stderr}`);
    const summary = JSON.parse(child.stdout) as {
      calls: Record<
        string,
        {
          before: string;
          after: string;
          mainThread: string;
          terminated: number;
          slowestTerminateMs: number;
        }
      >;
      errors: string[];
    };
    assert.deepEqual(summary.errors, [], where);
    assert.deepEqual(Object.keys(summary.calls).sort(), names);
    for (const [name, call] of Object.entries(summary.calls)) {
      assert.equal(call.terminated, rounds, name);
      assert.doesNotMatch(call.before, /^uncoded/, `${name} before: ${call.before}`);
      assert.equal(call.after, call.before, `${where}: ${name} answers otherwise after`);
      assert.equal(call.mainThread, call.before, `${where}: ${name} on the main thread`);
    }
    const slowest = Object.entries(summary.calls)
      .map(([name, call]) => `${name} ${call.slowestTerminateMs.toFixed(0)} ms`)
      .join(', ');
    console.log(`slowest terminate per function: ${slowest}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
