/**
 * Runs that outlive the page that started them: the event hub delivers each run's events to every
 * front end once, and `bench.running` hands a reloaded page the run as it stands.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { RunningBench } from '../../../app/contract/bench.js';
import type { BenchEvent } from '../../../app/contract/bench-events.js';
import { JobEvent } from '../../../app/contract/jobs.js';
import { ipcChannels } from '../../../app/contract/channels.js';
import { ResultsStore } from '../../../app/core/bench/results-store.js';
import { benchHandlers } from '../../../app/core/bench/service.js';
import { createDispatcher, type CallContext, type Handlers } from '../../../app/core/dispatch.js';
import { EventHub } from '../../../app/core/event-hub.js';
import { jobs } from '../../../app/core/jobs/service.js';
import { createIpcHandler, type WebContentsLike } from '../../../app/desktop/app.js';
import { appEntryUrl } from '../../../app/desktop/security.js';
import { slowDrive } from '../../helpers/fake-bench-io.js';

let target: string;
let dataDir: string;
beforeEach(async () => {
  target = await mkdtemp(path.join(os.tmpdir(), 'plumb-running-'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'plumb-running-data-'));
});
afterEach(async () => {
  await rm(target, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

/** A front end's context that keeps the run events it is sent (the job's own aside). */
function listener() {
  const events: BenchEvent[] = [];
  const context: CallContext = {
    emit: (name, payload) => {
      assert.equal(name, 'job.event');
      const job = JobEvent.parse(payload);
      if (job.type === 'bench') events.push(job.event); // else the job's own (tests/unit/jobs)
    },
  };
  return { events, context };
}

/** A run's event as the job event that carries it. */
const asJob = (event: BenchEvent): JobEvent => ({
  type: 'bench',
  jobId: event.runId,
  kind: 'bench',
  event,
});

/** A quick standard run (on the slow fake drive: it lasts) under the job id `jobId`. */
const quickStandard = (jobId: string) => ({
  path: target,
  plan: 'standard',
  scale: 0.001,
  buffered: false,
  keepFiles: false,
  reserveBytes: 0,
  jobId,
});

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('EventHub', () => {
  it('sends to the caller and every subscriber, each once', () => {
    const hub = new EventHub();
    const [a, b, c] = [listener(), listener(), listener()];
    const event = asJob({ type: 'cancelled', runId: 'r1' });
    hub.publish('job.event', event, a.context); // nobody subscribed: only the caller
    const unsubscribeA = hub.subscribe(a.context);
    hub.subscribe(b.context);
    hub.publish('job.event', event, a.context); // a subscribed: not twice
    hub.publish('job.event', event, c.context); // c is not: it and both subscribers
    unsubscribeA();
    hub.publish('job.event', event);
    assert.deepEqual([a.events.length, b.events.length, c.events.length], [3, 3, 1]);
    assert.equal(hub.size, 1);
  });
});

describe('bench.running and events for every page', () => {
  it('lists a run with its plan, target and progress, and every page hears it', async () => {
    const hub = new EventHub();
    const handlers = benchHandlers(new ResultsStore(path.join(dataDir, 'results')), slowDrive, hub);
    const [starter, reloaded] = [listener(), listener()];
    hub.subscribe(starter.context);
    const { runId } = await handlers['bench.start'](quickStandard('started-here'), starter.context);
    await until(() => starter.events.filter((e) => e.type === 'file-done').length >= 20);
    // A page loaded now: it subscribes, then asks what is going on.
    hub.subscribe(reloaded.context);
    const { runs } = await handlers['bench.running']({}, reloaded.context);
    assert.equal(runs.length, 1);
    const run = RunningBench.parse(runs[0]);
    assert.equal(run.runId, runId);
    assert.equal(run.jobId, 'started-here');
    assert.equal(run.planName, 'standard');
    assert.equal(run.plan?.kind, 'files');
    assert.equal(run.target, target);
    assert.equal(run.request.scale, 0.001);
    assert.equal(run.phase, 'write');
    assert.equal(run.plannedFiles, 320);
    assert.ok(run.filesDone >= 20 && run.filesDone === run.files.length);
    assert.equal(
      run.fileBytesDone,
      run.files.reduce((sum, f) => sum + f.bytes, 0),
    );
    assert.ok(run.samples.length > 0 && run.seconds > 0 && run.bytesDone > 0);

    assert.equal(jobs.cancel(run.jobId), true);
    await until(() => reloaded.events.some((e) => e.type === 'cancelled'));
    await until(() => starter.events.some((e) => e.type === 'cancelled'));
    // Both heard everything after the reload once; the starter heard the whole run once.
    assert.equal(starter.events.filter((e) => e.type === 'plan-started').length, 1);
    assert.equal(starter.events.filter((e) => e.type === 'cancelled').length, 1);
    assert.deepEqual(
      reloaded.events,
      starter.events.slice(starter.events.length - reloaded.events.length),
    );
    assert.deepEqual((await handlers['bench.running']({}, reloaded.context)).runs, []);
    assert.deepEqual(await readdir(target), []);
  });

  it("under plumb serve, a session's run is listed, heard and cancelled by that session only", async () => {
    const hub = new EventHub();
    const handlers = benchHandlers(new ResultsStore(path.join(dataDir, 'results')), slowDrive, hub);
    const [mine, minePage2, theirs] = [listener(), listener(), listener()];
    const [sessionA, sessionB] = [{}, {}];
    mine.context.session = sessionA;
    minePage2.context.session = sessionA;
    theirs.context.session = sessionB;
    for (const page of [mine, minePage2, theirs]) hub.subscribe(page.context);
    await handlers['bench.start'](quickStandard('session-a-run'), mine.context);
    await until(() => minePage2.events.some((e) => e.type === 'file-done'));
    const listedBy = async (page: ReturnType<typeof listener>) =>
      (await handlers['bench.running']({}, page.context)).runs.map((run) => run.jobId);
    assert.deepEqual(await listedBy(minePage2), ['session-a-run']);
    assert.deepEqual(await listedBy(theirs), []);
    assert.equal(jobs.cancel('session-a-run', sessionB), false, 'not theirs to cancel');
    assert.ok(!jobs.list(sessionB).some((job) => job.jobId === 'session-a-run'));
    assert.equal(jobs.cancel('session-a-run', sessionA), true);
    await until(() => mine.events.some((e) => e.type === 'cancelled'));
    assert.deepEqual(theirs.events, [], 'the other session hears nothing of it');
    assert.deepEqual(await readdir(target), []);
  });

  it('reaches every Electron window once, however many calls each made', async () => {
    const hub = new EventHub();
    const dispatcher = createDispatcher({
      'app.about': async (_input: unknown, context: CallContext) => {
        // As the bench service does: to the caller and to every subscribed window.
        hub.publish('job.event', asJob({ type: 'cancelled', runId: 'from-a-call' }), context);
        return { name: 'Plumb', version: '0', transport: 'electron' };
      },
    } as unknown as Handlers);
    const handle = createIpcHandler(dispatcher, hub);
    const windows = [1, 2].map((id) => {
      const sent: unknown[][] = [];
      const sender = {
        id,
        send: (...args: unknown[]) => sent.push(args),
        isDestroyed: () => false,
      } as unknown as WebContentsLike;
      return { sent, sender };
    });
    const call = (w: (typeof windows)[number]) =>
      handle(
        { sender: w.sender, senderFrame: { url: appEntryUrl, parent: null } },
        'app.about',
        {},
      );
    await call(windows[0]!);
    await call(windows[0]!);
    await call(windows[1]!);
    assert.equal(hub.size, 2, 'one subscription per window');
    hub.publish('job.event', asJob({ type: 'cancelled', runId: 'elsewhere' }));
    const runIds = (w: (typeof windows)[number]) =>
      w.sent.map(([channel, name, payload]) => {
        assert.equal(channel, ipcChannels.event);
        assert.equal(name, 'job.event');
        return (payload as JobEvent).jobId;
      });
    // Window 1's own calls: once each; window 2's call reached window 1 too (it is subscribed).
    assert.deepEqual(runIds(windows[0]!), [
      'from-a-call',
      'from-a-call',
      'from-a-call',
      'elsewhere',
    ]);
    assert.deepEqual(runIds(windows[1]!), ['from-a-call', 'elsewhere']);
  });
});
