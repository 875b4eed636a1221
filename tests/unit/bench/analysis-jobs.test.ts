/**
 * `analysis.csv` runs in a worker thread as a job: jobs.cancel stops it by its jobId, and so does
 * the page that asked going away; a jobId names one running job at a time.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { JobEvent } from '../../../app/contract/jobs.js';
import type { CallContext } from '../../../app/core/dispatch.js';
import { ResultsStore } from '../../../app/core/bench/results-store.js';
import { seededRandom } from '../../../app/core/bench/seeded-random.js';
import { benchHandlers } from '../../../app/core/bench/service.js';
import { jobHandlers } from '../../../app/core/jobs/service.js';
import { FakeDrive } from '../../helpers/fake-bench-io.js';
import { transferRows } from '../../helpers/transfer-rows.js';

let dataDir: string;
before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'plumb-analysis-jobs-'));
});
after(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const csv = transferRows(40_000, 'varied', seededRandom(24));

describe('analysis.csv jobs', () => {
  it('gives the results document, and stops when the page that asked closes', async () => {
    const handlers = benchHandlers(new ResultsStore(dataDir), () => new FakeDrive());
    const closed = new AbortController();
    const context: CallContext = { emit: () => undefined, closed: closed.signal };
    const small = await handlers['analysis.csv']({ csv: '100,1\n200,2\n', phase: 'read' }, context);
    assert.equal(small.summary.read.median, 100);
    const analysis = handlers['analysis.csv']({ csv, phase: 'write' }, context);
    closed.abort();
    await assert.rejects(analysis, { code: 'ECANCELED', message: 'The analysis was cancelled.' });
  });

  it('refuses a second analysis under a running one’s jobId, and jobs.cancel stops it', async () => {
    const handlers = {
      ...benchHandlers(new ResultsStore(dataDir), () => new FakeDrive()),
      ...jobHandlers(),
    };
    const kinds: string[] = [];
    const context: CallContext = {
      emit: (name, payload) => {
        const event = payload as JobEvent;
        if (name === 'job.event') kinds.push(`${event.type} ${event.kind}`);
      },
    };
    const first = handlers['analysis.csv']({ csv, phase: 'write', jobId: 'j' }, context);
    await assert.rejects(handlers['analysis.csv']({ csv, phase: 'write', jobId: 'j' }, context), {
      code: 'EINVAL',
    });
    const listed = (await handlers['jobs.list']({}, context)).jobs.find((job) => job.jobId === 'j');
    assert.deepEqual([listed?.kind, listed?.state], ['analysis', 'running']);
    assert.deepEqual(await handlers['jobs.cancel']({ jobId: 'j' }, context), { cancelled: true });
    await assert.rejects(first, { code: 'ECANCELED' });
    assert.deepEqual(await handlers['jobs.cancel']({ jobId: 'j' }, context), { cancelled: false });
    assert.deepEqual(kinds, ['started analysis', 'cancelled analysis']);
  });
});
