/**
 * The job registry: caller-chosen ids (one running job per id), events in order with progress at
 * most every interval (the last always before the end), cancel by id or by the caller's signal,
 * and the list that tells a late subscriber how each job ended.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JobEvent, type JobInfo } from '../../../app/contract/jobs.js';
import type { CallContext } from '../../../app/core/dispatch.js';
import { createDispatcher } from '../../../app/core/dispatch.js';
import { jobHandlers } from '../../../app/core/jobs/service.js';
import { JobRegistry, type JobHandle } from '../../../app/core/jobs/registry.js';
import { createHandlers } from '../../../app/core/services.js';
import { testContext } from '../../helpers/context.js';

function recorded(options: { progressEveryMs?: number; clockMs?: () => number } = {}) {
  const events: JobEvent[] = [];
  const origins: (CallContext | undefined)[] = [];
  const registry = new JobRegistry((event, origin) => {
    JobEvent.parse(event);
    events.push(event);
    origins.push(origin);
  }, options);
  return { registry, events, origins };
}

/** A job that waits until released, reporting each step, and stops at its signal. */
function steppedWork(steps: number) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const work = async (job: JobHandle) => {
    let done = 0;
    for (; done < steps; done += 1) {
      if (job.signal.aborted) break;
      job.progress({
        phase: null,
        done,
        total: steps,
        bytesDone: done * 10,
        bytesTotal: steps * 10,
      });
      if (done === 0) await gate;
    }
    return done;
  };
  return { work, release: () => release() };
}

const progress = (done: number) => ({
  phase: null,
  done,
  total: 5,
  bytesDone: done,
  bytesTotal: 5,
});

describe('JobRegistry', () => {
  it('reports started, progress and done under the caller’s id, to the origin', async () => {
    const { registry, events, origins } = recorded({ progressEveryMs: 0 });
    const origin: CallContext = { emit: () => undefined };
    const result = await registry.run({ jobId: 'a-1', kind: 'dedupe', origin }, async (job) => {
      job.progress(progress(1));
      return 42;
    });
    assert.equal(result, 42);
    assert.deepEqual(
      events.map((e) => [e.type, e.jobId, e.kind]),
      [
        ['started', 'a-1', 'dedupe'],
        ['progress', 'a-1', 'dedupe'],
        ['done', 'a-1', 'dedupe'],
      ],
    );
    assert.ok(origins.every((o) => o === origin));
    assert.deepEqual(
      registry.list().map((j) => [j.jobId, j.state, j.progress?.done]),
      [['a-1', 'done', 1]],
    );
  });

  it('refuses a second job under a running job’s id, and takes the id again once it ended', async () => {
    const { registry } = recorded();
    const first = steppedWork(3);
    const running = registry.run({ jobId: 'same', kind: 'trash' }, first.work);
    await assert.rejects(
      registry.run({ jobId: 'same', kind: 'trash' }, async () => 0),
      {
        code: 'EINVAL',
        message: /new id/,
      },
    );
    first.release();
    assert.equal(await running, 3);
    assert.equal(await registry.run({ jobId: 'same', kind: 'trash' }, async () => 7), 7);
  });

  it('cancels by id: the work stops at its next step and the job ends cancelled', async () => {
    const { registry, events } = recorded({ progressEveryMs: 0 });
    const { work, release } = steppedWork(5);
    const running = registry.run({ jobId: 'c', kind: 'dedupe' }, work);
    assert.equal(registry.list()[0]?.state, 'running');
    assert.equal(registry.cancel('c'), true);
    assert.equal(registry.list()[0]?.state, 'cancelling');
    release();
    assert.equal(await running, 1, 'one step done before the cancel, none after');
    assert.equal(events.at(-1)?.type, 'cancelled');
    assert.equal(registry.cancel('c'), false, 'an ended job cannot be cancelled');
    assert.equal(registry.cancel('never'), false);
    assert.equal(registry.list()[0]?.state, 'cancelled');
    assert.equal(registry.stateOf('c'), 'cancelled');
    assert.equal(registry.stateOf('never'), null);
  });

  it('stops with the caller’s own signal too (the CLI’s Ctrl-C)', async () => {
    const { registry, events } = recorded();
    const ctrlC = new AbortController();
    const { work, release } = steppedWork(5);
    const running = registry.run({ jobId: 'cli', kind: 'trash', signal: ctrlC.signal }, work);
    ctrlC.abort();
    release();
    assert.equal(await running, 1);
    assert.equal(events.at(-1)?.type, 'cancelled');
  });

  it('ends failed with the error’s code, and rethrows it; a throw after a cancel is a cancel', async () => {
    const { registry, events } = recorded();
    const boom = Object.assign(new Error('The disk went away.'), { code: 'EIO' });
    await assert.rejects(
      registry.run({ jobId: 'f', kind: 'sparse-list' }, async () => {
        throw boom;
      }),
      boom,
    );
    assert.deepEqual(events.at(-1), {
      type: 'failed',
      jobId: 'f',
      kind: 'sparse-list',
      error: { code: 'EIO', message: 'The disk went away.' },
    });
    const stopped = registry.run({ jobId: 'g', kind: 'sparse-list' }, async (job) => {
      await new Promise((resolve) => job.signal.addEventListener('abort', resolve));
      throw Object.assign(new Error('The listing was cancelled.'), { code: 'ECANCELED' });
    });
    registry.cancel('g');
    await assert.rejects(stopped, { code: 'ECANCELED' });
    assert.equal(events.at(-1)?.type, 'cancelled');
    const states = registry.list().map((j: JobInfo) => [j.jobId, j.state, j.error?.code ?? null]);
    assert.deepEqual(states, [
      ['f', 'failed', 'EIO'],
      ['g', 'cancelled', null],
    ]);
  });

  it('sends progress at most every interval, and the last one before the end', async () => {
    let now = 0;
    const { registry, events } = recorded({ progressEveryMs: 100, clockMs: () => now });
    await registry.run({ jobId: 'p', kind: 'trash' }, async (job) => {
      for (let done = 1; done <= 5; done += 1) {
        now += 30;
        job.progress(progress(done));
      }
    });
    const sent = events.flatMap((e) => (e.type === 'progress' ? [e.progress.done] : []));
    // At 30 ms (the first), 150 ms (120 after it), then the unsent last one (done 5) at the end.
    assert.deepEqual(sent, [1, 5]);
    assert.equal(events.at(-1)?.type, 'done');
    const last = events.findLast((e) => e.type === 'progress');
    assert.equal(last?.type === 'progress' && last.progress.seconds, 0.15);
  });

  it('keeps only the last few ended jobs in its list', async () => {
    const registry = new JobRegistry(() => undefined, { keptEnded: 2 });
    for (const jobId of ['j1', 'j2', 'j3'])
      await registry.run({ jobId, kind: 'dedupe' }, async () => 0);
    assert.deepEqual(
      registry.list().map((j) => j.jobId),
      ['j2', 'j3'],
    );
  });
});

describe('jobs.* operations', () => {
  it('lists and cancels through the dispatcher, checking the id like any input', async () => {
    const registry = new JobRegistry(() => undefined);
    const dispatcher = createDispatcher({
      ...createHandlers(testContext(), 'web'),
      ...jobHandlers(registry),
    });
    const quiet: CallContext = { emit: () => undefined };
    const { work, release } = steppedWork(2);
    const running = registry.run({ jobId: 'op-1', kind: 'trash' }, work);
    const listed = (await dispatcher.call('jobs.list', {}, quiet)) as { jobs: JobInfo[] };
    assert.deepEqual(
      listed.jobs.map((j) => [j.jobId, j.kind, j.state]),
      [['op-1', 'trash', 'running']],
    );
    assert.deepEqual(await dispatcher.call('jobs.cancel', { jobId: 'op-1' }, quiet), {
      cancelled: true,
    });
    release();
    await running;
    await assert.rejects(dispatcher.call('jobs.cancel', { jobId: 'no spaces' }, quiet), {
      code: 'EINVAL',
      message: /jobId: A job id is/,
    });
  });
});
