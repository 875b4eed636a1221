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
import { childEnv, plumbBin } from '../helpers/cli.js';
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

/** Runs `plumb analyze FILE` to its end; resolves with its exit code and output. */
function analysis(file: string) {
  const started = performance.now();
  const child = spawn(process.execPath, [plumbBin, 'analyze', file], {
    stdio: 'pipe',
    env: childEnv(),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, exited, started, output: () => ({ stdout, stderr }) };
}

/**
 * Starts analysing a million rows, signals it halfway through the time an uninterrupted analysis
 * of the same file took just before (so it is computing whatever this machine's speed: a fixed
 * wait of 2.5 s outlasted a whole analysis in one CI run), and times the exit.
 */
async function interrupted(sizes: RowSizes, signal: NodeJS.Signals) {
  const file = path.join(dir, `${sizes}.csv`);
  await writeFile(file, transferRows(1_000_000, sizes, random));
  const whole = analysis(file);
  assert.equal(await whole.exited, 0, `the uninterrupted analysis: ${whole.output().stderr}`);
  const wholeMs = performance.now() - whole.started;
  const run = analysis(file);
  await new Promise((resolve) => setTimeout(resolve, wholeMs / 2));
  assert.equal(
    run.child.exitCode,
    null,
    `the analysis had ended ${(wholeMs / 2000).toFixed(2)} s in, before the ${signal}: ` +
      run.output().stderr,
  );
  const sent = performance.now();
  run.child.kill(signal);
  const timeout = new Promise<'still running'>((resolve) =>
    setTimeout(() => resolve('still running'), 5000).unref(),
  );
  const code = await Promise.race([run.exited, timeout]);
  const seconds = (performance.now() - sent) / 1000;
  if (code === 'still running') run.child.kill('SIGKILL');
  return { code, seconds, ...run.output() };
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
