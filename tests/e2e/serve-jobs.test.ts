/**
 * A scan through `plumb serve` as a job with the id the page chose: the scan's id is that id, its
 * job events (started, progress, done) come tagged with it, jobs.list shows it done, and the id
 * cannot start a second scan.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { JobEvent, JobInfo } from '../../app/contract/jobs.js';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import { openContractSocket, signIn } from '../helpers/web.js';

let server: ServeProcess;
let scratch: string;

before(async () => {
  scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'plumb-serve-jobs-')));
  server = await startServe([], {
    env: {
      PLUMB_DATA_DIR: path.join(scratch, 'data'),
      PLUMB_STATE_DIR: path.join(scratch, 'state'),
    },
  });
});
after(async () => {
  assert.equal(await server.stop(), 0);
  rmSync(scratch, { recursive: true, force: true });
});

test('a scan runs as the job the page named', async () => {
  const dir = path.join(scratch, 'photos');
  mkdirSync(dir);
  for (const name of ['a.jpg', 'b.jpg']) writeFileSync(path.join(dir, name), 'same bytes');
  const socket = await openContractSocket(server, await signIn(server));
  try {
    const jobId = 'scan-photos-1';
    const events: JobEvent[] = [];
    const ended = new Promise<void>((resolve) =>
      socket.on('job.event', (payload) => {
        const event = payload as JobEvent;
        if (event.jobId !== jobId) return;
        events.push(event);
        if (event.type === 'done' || event.type === 'failed') resolve();
      }),
    );
    await socket.call('session.choosePath', { path: dir });
    const started = await socket.call('space.scan', { path: dir, jobId });
    assert.deepEqual(started.value, { scanId: jobId });
    await ended;
    assert.deepEqual(
      [...new Set(events.map((e) => `${e.type}:${e.kind}`))],
      ['started:scan', 'progress:scan', 'done:scan'],
    );
    const result = await socket.call('space.result', { scanId: jobId });
    assert.equal((result.value as { groups: unknown[] }).groups.length, 1);
    const list = await socket.call('jobs.list', {});
    const listed = (list.value as { jobs: JobInfo[] }).jobs.find((j) => j.jobId === jobId);
    assert.equal(listed?.state, 'done');
    assert.equal(listed?.kind, 'scan');
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
