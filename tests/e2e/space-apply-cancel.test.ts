/**
 * Cancelling an apply part way, as a person would: through `plumb serve` (jobs.cancel with the
 * jobId the page chose, once its progress says a file is done) and through the CLI (Ctrl-C once
 * it printed a file done). Either way the apply stops between files: the files done are done
 * (moved to the Trash with their bytes, or clones holding the same bytes), the others are where
 * they were, unchanged, the counts say so, and the CLI says what was and was not done, exiting 130.
 * A scan through serve is a job too, under the id the page chose.
 * Trash runs on the temporary folder's own volume; dedupe needs a reflink XFS loop volume.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { JobEvent, JobInfo } from '../../app/contract/jobs.js';
import type { DedupeReport, EmptyTrashReport, TrashReport } from '../../app/contract/space.js';
import { plumbBin, startServe, type ServeProcess } from '../helpers/cli.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { plainCopy, randomFile, sha256 } from '../helpers/space-files.js';
import {
  openContractSocket,
  scanned,
  signIn,
  type CallReply,
  type ContractSocket,
} from '../helpers/web.js';

/** Enough that an apply lasts a few hundred milliseconds here, so a cancel lands within it. */
const copies = 300;

let scratch: string;
before(() => {
  scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'plumb-apply-cancel-')));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/** One group: a kept file and `copies` copies of it (256 KiB of random bytes); their digests. */
function duplicates(root: string): { digest: string; files: string[] } {
  const kept = randomFile(path.join(root, 'kept.bin'), 256 * 1024 + 17);
  const files = [kept];
  for (let i = 0; i < copies; i += 1) {
    files.push(plainCopy(kept, path.join(root, `copy-${String(i).padStart(3, '0')}.bin`)));
  }
  return { digest: sha256(kept), files };
}

function envFor(base: string): NodeJS.ProcessEnv {
  return {
    XDG_DATA_HOME: path.join(base, 'xdg'),
    PLUMB_STATE_DIR: path.join(base, 'state'),
    PLUMB_DATA_DIR: path.join(base, 'data'),
  };
}

/** Every file of the Trash's files/ folder, with each one's digest checked. */
function trashedFiles(env: NodeJS.ProcessEnv, digest: string): string[] {
  const dir = path.join(env.XDG_DATA_HOME!, 'Trash', 'files');
  const names = existsSync(dir) ? readdirSync(dir) : [];
  for (const name of names) assert.equal(sha256(path.join(dir, name)), digest, `${name} in Trash`);
  return names;
}

/** Files of `files` still in place, each checked whole. */
function inPlace(files: string[], digest: string): string[] {
  const left = files.filter((file) => existsSync(file));
  for (const file of left) assert.equal(sha256(file), digest, `${file} is whole`);
  return left;
}

/** Follows the job `jobId`'s events, and cancels it once a progress event says a file is done. */
function cancelAfterFirstFile(
  socket: ContractSocket,
  jobId: string,
): { events: JobEvent[]; cancelled: () => Promise<CallReply> | undefined } {
  const events: JobEvent[] = [];
  let cancelled: Promise<CallReply> | undefined;
  socket.on('job.event', (payload) => {
    const event = payload as JobEvent;
    if (event.jobId !== jobId) return;
    events.push(event);
    if (event.type === 'progress' && event.progress.done >= 1 && !cancelled) {
      cancelled = socket.call('jobs.cancel', { jobId });
    }
  });
  return { events, cancelled: () => cancelled };
}

/**
 * Applies `operation` with a jobId after its dry run, cancelling it once a progress event says a
 * file is done; the report, the job's events and the job as jobs.list then tells it.
 */
async function appliedThenCancelled<R>(
  socket: ContractSocket,
  operation: 'space.trash' | 'space.dedupe',
  scanId: string,
): Promise<{ report: R; events: JobEvent[]; listed: JobInfo | undefined }> {
  const dryRun = await socket.call(operation, { scanId });
  assert.equal(dryRun.ok, true, JSON.stringify(dryRun.error));
  const jobId = `apply-${operation}-${Date.now()}`;
  const { events, cancelled } = cancelAfterFirstFile(socket, jobId);
  const applied = await socket.call(operation, { scanId, apply: true, jobId });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
  assert.deepEqual((await cancelled())?.value, { cancelled: true }, 'cancelled while it ran');
  const list = await socket.call('jobs.list', {});
  const listed = (list.value as { jobs: JobInfo[] }).jobs.find((job) => job.jobId === jobId);
  return { report: applied.value as R, events, listed };
}

/** Runs `plumb ARGS`, sends SIGINT once it printed a line matching `done`; code and output. */
function interruptedCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  done: RegExp,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [plumbBin, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let sent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!sent && stdout.split('\n').some((line) => done.test(line))) {
      sent = true;
      child.kill('SIGINT');
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** The counts in the CLI's last line: files done before the stop, and files not touched. */
function cancelledCounts(stderr: string): { done: number; untouched: number } {
  const match =
    /Cancelled: (\d+) files .* before the stop; (\d+) not touched\. Every file is whole\./.exec(
      stderr,
    );
  assert.ok(match, `the cancel line: ${stderr}`);
  return { done: Number(match[1]), untouched: Number(match[2]) };
}

/** The job's events: started, progress, then cancelled, with the last progress the files done. */
function assertCancelledJob(events: JobEvent[], listed: JobInfo | undefined, done: number): void {
  assert.equal(events[0]?.type, 'started');
  assert.equal(events.at(-1)?.type, 'cancelled');
  const last = events.findLast((e) => e.type === 'progress');
  assert.ok(last?.type === 'progress');
  assert.equal(last.progress.total, copies);
  assert.equal(last.progress.done, done, 'the last progress counts the files done');
  assert.equal(listed?.state, 'cancelled');
  assert.equal(listed?.progress?.done, done);
}

describe('cancelling a Trash apply', () => {
  let server: ServeProcess;
  const serveBase = () => path.join(scratch, 'serve');
  before(async () => {
    mkdirSync(serveBase());
    server = await startServe([], { env: envFor(serveBase()) });
  });
  after(async () => assert.equal(await server.stop(), 0));

  test('through serve: jobs.cancel stops it between files, every file whole', async () => {
    const root = path.join(serveBase(), 'tree');
    const { digest, files } = duplicates(root);
    const socket = await openContractSocket(server, await signIn(server));
    try {
      const { scanId } = await scanned(socket, root);
      const { report, events, listed } = await appliedThenCancelled<TrashReport>(
        socket,
        'space.trash',
        scanId,
      );
      const c = report.counts;
      assert.ok(c.moved >= 1 && c.moved < copies, `moved ${c.moved} of ${copies}`);
      assert.equal(c.skipped, copies - c.moved);
      assert.equal(c.failed, 0);
      assert.ok(report.actions.every((a) => a.status === 'moved' || a.code === 'ECANCELED'));
      assertCancelledJob(events, listed, c.moved);
      assert.equal(trashedFiles(envFor(serveBase()), digest).length, c.moved);
      assert.equal(inPlace(files, digest).length, files.length - c.moved);
    } finally {
      socket.close();
    }
  });

  test('emptying the Trash: jobs.cancel stops it between files, the batch kept for the rest', async () => {
    const root = path.join(serveBase(), 'to-empty');
    const { digest } = duplicates(root);
    const socket = await openContractSocket(server, await signIn(server));
    try {
      const { scanId } = await scanned(socket, root);
      assert.equal((await socket.call('space.trash', { scanId })).ok, true);
      const moved = await socket.call('space.trash', { scanId, apply: true });
      const { batchId } = moved.value as TrashReport;
      assert.ok(batchId);
      // The Trash holds the first test's files too: these are the ones with this tree's bytes.
      const trash = path.join(envFor(serveBase()).XDG_DATA_HOME!, 'Trash', 'files');
      const inTrash = () =>
        readdirSync(trash).filter((name) => sha256(path.join(trash, name)) === digest).length;
      const before = inTrash();
      assert.ok(before >= copies);
      assert.equal((await socket.call('space.trash.empty', { batchId })).ok, true);
      const jobId = `empty-${Date.now()}`;
      const { events, cancelled } = cancelAfterFirstFile(socket, jobId);
      const emptied = await socket.call('space.trash.empty', { batchId, apply: true, jobId });
      assert.equal(emptied.ok, true, JSON.stringify(emptied.error));
      assert.deepEqual((await cancelled())?.value, { cancelled: true }, 'cancelled while it ran');
      const report = emptied.value as EmptyTrashReport;
      const c = report.counts;
      assert.ok(c.deleted >= 1 && c.deleted < copies, `deleted ${c.deleted} of ${copies}`);
      assert.equal(c.skipped, copies - c.deleted);
      assert.ok(report.files.every((f) => f.status === 'deleted' || f.code === 'ECANCELED'));
      assert.deepEqual(
        [events[0]?.type, events[0]?.kind, events.at(-1)?.type],
        ['started', 'trash-empty', 'cancelled'],
      );
      assert.equal(inTrash(), before - c.deleted, 'the others are still in the Trash, whole');
      // The batch is kept: emptying it again deletes the rest.
      assert.equal((await socket.call('space.trash.empty', { batchId })).ok, true);
      const rest = await socket.call('space.trash.empty', { batchId, apply: true });
      assert.equal((rest.value as EmptyTrashReport).counts.deleted, copies - c.deleted);
      assert.equal(inTrash(), before - copies);
    } finally {
      socket.close();
    }
  });

  test('a scan runs as the job the page named', async () => {
    const dir = path.join(serveBase(), 'small');
    duplicates(dir);
    const socket = await openContractSocket(server, await signIn(server));
    try {
      const jobId = 'scan-small-1';
      const events: JobEvent[] = [];
      socket.on('job.event', (payload) => {
        if ((payload as JobEvent).jobId === jobId) events.push(payload as JobEvent);
      });
      const scan = await scanned(socket, dir, { jobId });
      assert.equal(scan.scanId, jobId);
      assert.equal(scan.groups.length, 1);
      const list = await socket.call('jobs.list', {});
      const listed = (list.value as { jobs: JobInfo[] }).jobs.find((j) => j.jobId === jobId);
      assert.deepEqual([listed?.kind, listed?.state], ['scan', 'done']);
      assert.deepEqual(
        [...new Set(events.map((e) => e.type))],
        ['started', 'progress', 'done'],
        'its events, tagged with its id',
      );
      const again = await socket.call('space.scan', { path: dir, jobId });
      assert.equal(again.error?.code, 'EINVAL');
      assert.match(again.error?.message ?? '', /use a new id/);
      assert.deepEqual((await socket.call('space.cancel', { scanId: jobId })).value, {
        cancelled: false,
      });
    } finally {
      socket.close();
    }
  });

  test('through the CLI: Ctrl-C stops it, says what was done and not, exits 130', async () => {
    const base = path.join(scratch, 'cli');
    const env = envFor(base);
    const root = path.join(base, 'tree');
    const { digest, files } = duplicates(root);
    const run = await interruptedCli(['space', 'trash', root, '--apply'], env, /^trashed /);
    assert.equal(run.code, 130, run.stderr);
    const { done, untouched } = cancelledCounts(run.stderr);
    assert.ok(done >= 1 && done < copies, `moved ${done}`);
    assert.equal(done + untouched, copies);
    assert.equal(run.stdout.split('\n').filter((l) => l.startsWith('trashed ')).length, done);
    assert.match(run.stdout, new RegExp(`Moved ${done} copies to the Trash`));
    assert.equal(trashedFiles(env, digest).length, done);
    assert.equal(inPlace(files, digest).length, files.length - done);
  });
});

describe('cancelling a dedupe apply', { skip: loopSkipReason('xfs') }, () => {
  let fs: MountedFs;
  let server: ServeProcess;
  before(async () => {
    fs = mountLoopFs('xfs', { sizeBytes: 320 * 1024 * 1024, mkfsArgs: ['-m', 'reflink=1'] });
    server = await startServe([], { env: envFor(path.join(scratch, 'dedupe-serve')) });
  });
  after(async () => {
    assert.equal(await server.stop(), 0);
    fs.unmount();
  });

  test('through serve: jobs.cancel stops it between files, every file whole', async () => {
    const root = path.join(fs.dir, 'serve');
    const { digest, files } = duplicates(root);
    const socket = await openContractSocket(server, await signIn(server));
    try {
      const { scanId } = await scanned(socket, root);
      const { report, events, listed } = await appliedThenCancelled<DedupeReport>(
        socket,
        'space.dedupe',
        scanId,
      );
      const c = report.counts;
      assert.ok(c.done >= 1 && c.done < copies, `cloned ${c.done} of ${copies}`);
      assert.equal(c.skipped, copies - c.done);
      assert.equal(c.failed, 0);
      assertCancelledJob(events, listed, c.done);
      assert.equal(inPlace(files, digest).length, files.length);
    } finally {
      socket.close();
    }
  });

  test('through the CLI: Ctrl-C stops it, says what was done and not, exits 130', async () => {
    const root = path.join(fs.dir, 'cli');
    const { digest, files } = duplicates(root);
    const env = envFor(path.join(scratch, 'dedupe-cli'));
    const run = await interruptedCli(['space', 'dedupe', root, '--apply'], env, /^cloned /);
    assert.equal(run.code, 130, run.stderr);
    const { done, untouched } = cancelledCounts(run.stderr);
    assert.ok(done >= 1 && done < copies, `cloned ${done}`);
    assert.equal(done + untouched, copies);
    assert.equal(run.stdout.split('\n').filter((l) => l.startsWith('cloned ')).length, done);
    assert.equal(inPlace(files, digest).length, files.length);
  });
});
