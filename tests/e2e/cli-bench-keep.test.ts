/**
 * Kept means kept (issue 24): the test files of `bench --keep-files` stay, byte for byte, through
 * later runs in the same folder, and so does the folder of a run still going in another process;
 * only the folder of a run that really died (SIGKILL) is removed, and the run says so.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { childEnv, plumbBin, runPlumb } from '../helpers/cli.js';

/** Every file under `dir` (relative name → sha256), to compare byte for byte. */
function contents(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const file = path.join(dir, name);
    try {
      found[name] = createHash('sha256').update(readFileSync(file)).digest('hex');
    } catch {
      found[name] = 'folder';
    }
  }
  return found;
}

function testFolders(target: string): string[] {
  return readdirSync(target)
    .filter((name) => name.startsWith('plumb-test-'))
    .sort();
}

/** The folder of a run started elsewhere, once it holds a test file. */
async function folderWithTestFiles(target: string, except: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const folder = testFolders(target)
      .map((name) => path.join(target, name))
      .find((dir) => dir !== except && readdirSync(dir).some((name) => name.endsWith('.dat')));
    if (folder) return folder;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no run wrote test files in ${target} within 30 s`);
}

/**
 * Once every thread of `pid` is stopped (state T in /proc): a SIGSTOP lands after a write already
 * in the kernel completes, so the folder is read only then.
 */
async function stopped(pid: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const state = (task: string) => {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    };
    // Every thread: the write is in a worker thread's system call.
    if (readdirSync(`/proc/${pid}/task`).every((task) => state(task) === 'T')) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`process ${pid} did not stop within 10 s`);
}

describe('bench --keep-files', () => {
  let work: string;
  let target: string;
  let env: NodeJS.ProcessEnv;
  const quick = ['--plan', 'standard', '--scale', '0.001', '--reserve', '0'];

  before(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'plumb-keep-'));
    target = path.join(work, 'target');
    mkdirSync(target);
    env = { PLUMB_DATA_DIR: path.join(work, 'data') };
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  let kept: string;
  let keptFiles: Record<string, string>;

  it('keeps the files through the next runs in the same folder, byte for byte', () => {
    const first = runPlumb(['bench', target, ...quick, '--keep-files'], { env });
    assert.equal(first.status, 0, first.stderr);
    const folders = testFolders(target);
    assert.equal(folders.length, 1, `one kept folder: ${folders.join(', ')}`);
    kept = path.join(target, folders[0]!);
    keptFiles = contents(kept);
    assert.ok(
      Object.keys(keptFiles).some((name) => name.endsWith('.dat')),
      'test files in it',
    );

    for (const run of [1, 2]) {
      const next = runPlumb(['bench', target, ...quick], { env });
      assert.equal(next.status, 0, next.stderr);
      assert.doesNotMatch(next.stdout + next.stderr, /left behind/, `run ${run} removed nothing`);
      assert.deepEqual(contents(kept), keptFiles, `after run ${run}, the kept files are the same`);
    }
    assert.deepEqual(testFolders(target), [path.basename(kept)]);
  });

  it("leaves another process's running test folder alone", async () => {
    // A run in another process, paused (SIGSTOP) once it has written, so it is still going, for
    // sure, while another run starts in the same folder.
    const other = spawn(
      process.execPath,
      [plumbBin, 'bench', target, '--plan', 'series', '--scale', '0.05', '--reserve', '0'],
      { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let otherOutput = '';
    other.stdout.on('data', (chunk: Buffer) => (otherOutput += chunk.toString()));
    other.stderr.on('data', (chunk: Buffer) => (otherOutput += chunk.toString()));
    const otherDone = new Promise<number | null>((resolve) => other.on('close', resolve));
    const running = await folderWithTestFiles(target, kept);
    other.kill('SIGSTOP');
    let before: Record<string, string>, beside: ReturnType<typeof runPlumb>, after;
    try {
      await stopped(other.pid!);
      before = contents(running);
      beside = runPlumb(['bench', target, ...quick], { env });
      after = existsSync(running) ? contents(running) : null;
    } finally {
      // Whatever failed, the other run ends before the next test looks for a run's folder.
      other.kill('SIGCONT');
      await otherDone;
    }
    assert.equal(beside.status, 0, beside.stderr);
    assert.doesNotMatch(beside.stdout + beside.stderr, /left behind/);
    assert.deepEqual(after, before, 'the running folder is as it was');
    assert.equal(await otherDone, 0, otherOutput);
    assert.deepEqual(contents(kept), keptFiles);
  });

  it('removes the folder of a run killed with SIGKILL, and only that one', async () => {
    const doomed = spawn(
      process.execPath,
      [plumbBin, 'bench', target, '--plan', 'series', '--scale', '0.05', '--reserve', '0'],
      { env: childEnv(env), stdio: 'ignore' },
    );
    const died = new Promise((resolve) => doomed.on('close', resolve));
    const folder = await folderWithTestFiles(target, kept);
    doomed.kill('SIGKILL');
    await died;
    assert.ok(existsSync(folder), 'a killed run leaves its folder');

    const next = runPlumb(['bench', target, ...quick], { env });
    assert.equal(next.status, 0, next.stderr);
    assert.match(
      next.stdout + next.stderr,
      new RegExp(`Removed ${folder}, left behind by an earlier run`),
    );
    assert.equal(existsSync(folder), false, 'the dead run’s folder is gone');
    assert.deepEqual(testFolders(target), [path.basename(kept)]);
    assert.deepEqual(contents(kept), keptFiles, 'the kept files are the same');
  });
});
