/**
 * Jobs belong to the sign-in that started them under `plumb serve` (as chosen folders do): a
 * second sign-in neither lists, hears nor cancels them, while a second page of the same sign-in
 * does all three. The job is an analysis of a large CSV (seconds of work in a worker thread).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { JobEvent, JobInfo } from '../../app/contract/jobs.js';
import { seededRandom } from '../../app/core/bench/seeded-random.js';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import { transferRows } from '../helpers/transfer-rows.js';
import { openContractSocket, signIn, type ContractSocket } from '../helpers/web.js';

let server: ServeProcess;
before(async () => {
  server = await startServe();
});
after(async () => assert.equal(await server.stop(), 0));

const listed = async (socket: ContractSocket): Promise<string[]> =>
  ((await socket.call('jobs.list', {})).value as { jobs: JobInfo[] }).jobs.map((j) => j.jobId);

function heard(socket: ContractSocket): string[] {
  const ids: string[] = [];
  socket.on('job.event', (payload) => ids.push((payload as JobEvent).jobId));
  return ids;
}

test("a sign-in sees and cancels its own jobs, not another sign-in's", async () => {
  const session = await signIn(server);
  const [page, secondPage, other] = await Promise.all([
    openContractSocket(server, session),
    openContractSocket(server, session),
    openContractSocket(server, await signIn(server)),
  ]);
  try {
    const [secondHeard, otherHeard] = [heard(secondPage), heard(other)];
    const csv = transferRows(45_000, 'varied', seededRandom(27));
    const jobId = 'analysis-of-session-a';
    const analysis = page.call('analysis.csv', { csv: csv.slice(0, 1_000_000), jobId });
    // Its started event reaches the second page of the same sign-in once the job runs.
    while (!secondHeard.includes(jobId)) await new Promise((r) => setTimeout(r, 5));
    assert.ok((await listed(secondPage)).includes(jobId));
    assert.ok(!(await listed(other)).includes(jobId), 'another sign-in does not list it');
    assert.deepEqual((await other.call('jobs.cancel', { jobId })).value, { cancelled: false });
    assert.deepEqual((await secondPage.call('jobs.cancel', { jobId })).value, {
      cancelled: true,
    });
    const reply = await analysis;
    assert.equal(reply.error?.code, 'ECANCELED', 'stopped by its own sign-in');
    assert.deepEqual(otherHeard, [], 'another sign-in hears none of its events');
    assert.ok(!(await listed(other)).includes(jobId), 'nor lists it once ended');
    assert.ok((await listed(page)).includes(jobId));
  } finally {
    for (const socket of [page, secondPage, other]) socket.close();
  }
});
