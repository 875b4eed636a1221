/**
 * `plumb analyze` on a million rows: it computes in a worker thread, so Ctrl-C and SIGTERM stop
 * it within a second (a behaviour, not a speed target: the speed is measured in the report, not
 * here). The rows are drawn at random; PLUMB_TEST_SEED replays a draw.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newSeed, seededRandom } from '../../app/core/bench/seeded-random.js';
import { plumbBin } from '../helpers/cli.js';
import { transferRows, type RowSizes } from '../helpers/transfer-rows.js';

const seed = Number(process.env.PLUMB_TEST_SEED ?? newSeed());
console.log(`# seed ${seed} (replay with PLUMB_TEST_SEED=${seed})`);
const random = seededRandom(seed);

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plumb-analyze-large-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Starts analysing a million rows, signals it once it is computing, and times the exit. */
async function interrupted(sizes: RowSizes, signal: NodeJS.Signals) {
  const file = path.join(dir, `${sizes}.csv`);
  await writeFile(file, transferRows(1_000_000, sizes, random));
  const child = spawn(process.execPath, [plumbBin, 'analyze', file], { stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  // Reading and parsing a million rows takes about a second; the fits several more.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  assert.equal(child.exitCode, null, `the analysis had ended before the ${signal}: ${stderr}`);
  const sent = performance.now();
  child.kill(signal);
  const timeout = new Promise<'still running'>((resolve) =>
    setTimeout(() => resolve('still running'), 5000).unref(),
  );
  const code = await Promise.race([exited, timeout]);
  const seconds = (performance.now() - sent) / 1000;
  if (code === 'still running') child.kill('SIGKILL');
  return { code, seconds, stdout, stderr };
}

describe('plumb analyze on a million rows', () => {
  for (const [sizes, signal] of [
    ['equal', 'SIGINT'],
    ['varied', 'SIGTERM'],
  ] as const) {
    it(`stops within a second of ${signal} (${sizes} sizes)`, async () => {
      const { code, seconds, stdout, stderr } = await interrupted(sizes, signal);
      assert.equal(code, 1, `exit code (${stderr})`);
      assert.ok(seconds < 1, `exited ${seconds.toFixed(2)} s after ${signal}`);
      assert.equal(stderr, 'plumb analyze: The analysis was cancelled.\n');
      assert.equal(stdout, '', 'nothing half-printed');
    });
  }
});
