import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { BenchEvent } from '../../../app/contract/bench-events.js';
import { JobEvent } from '../../../app/contract/jobs.js';
import { spaceGuardCode } from '../../../app/contract/errors.js';
import type { CallContext } from '../../../app/core/dispatch.js';
import { ResultsStore } from '../../../app/core/bench/results-store.js';
import { benchHandlers } from '../../../app/core/bench/service.js';
import { jobs } from '../../../app/core/jobs/service.js';
import { ProgressView } from '../../../app/cli/bench/progress.js';
import { FakeDrive, slowDrive } from '../../helpers/fake-bench-io.js';

let target: string;
let dataDir: string;
beforeEach(async () => {
  target = await mkdtemp(path.join(os.tmpdir(), 'plumb-svc-'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'plumb-svc-data-'));
});
afterEach(async () => {
  await rm(target, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

/** A call context that collects a run's own events after checking them against the contract. */
function collector() {
  const events: BenchEvent[] = [];
  let settle: (event: BenchEvent) => void = () => undefined;
  const ended = new Promise<BenchEvent>((resolve) => (settle = resolve));
  const context: CallContext = {
    emit: (name, payload) => {
      assert.equal(name, 'job.event');
      const job = JobEvent.parse(payload);
      if (job.type !== 'bench') return; // the job's own events (tests/unit/jobs)
      assert.equal(job.kind, 'bench');
      const event = job.event;
      events.push(event);
      if (['finished', 'failed', 'cancelled'].includes(event.type)) settle(event);
    },
  };
  return { events, ended, context };
}

describe('bench operations', () => {
  it('bench.start runs in the background, streams its job events and stores the result', async () => {
    const store = new ResultsStore(path.join(dataDir, 'results'));
    const handlers = benchHandlers(store, () => new FakeDrive());
    const { events, ended, context } = collector();
    const { runId } = await handlers['bench.start'](
      {
        path: target,
        plan: 'series',
        scale: 0.001,
        buffered: false,
        keepFiles: false,
        reserveBytes: 0,
      },
      context,
    );
    const last = await ended;
    assert.equal(last.type, 'finished');
    assert.ok(events.every((e) => e.runId === runId));
    const listed = await handlers['results.list']({}, context);
    assert.deepEqual(
      listed.results.map((r) => r.id),
      [runId],
    );
    const csv = await handlers['results.exportCsv']({ id: runId }, context);
    // A quick run (scale 0.001) says so on a comment line before the header.
    assert.match(csv.csv.split('\n')[0]!, /^# Quick run at 0\.1 % of the plan's sizes/);
    assert.equal(csv.csv.split('\n').length, 1 + 1 + 84 + 1);
    assert.equal(listed.results[0]!.scale, 0.001);
    assert.equal(
      (await handlers['results.rename']({ id: runId, name: 'mine' }, context)).name,
      'mine',
    );
    assert.deepEqual(await handlers['results.delete']({ id: runId }, context), { deleted: true });
  });

  it("a run started with the caller's job id reports under it from its first event", async () => {
    const handlers = benchHandlers(new ResultsStore(path.join(dataDir, 'results')), slowDrive);
    const tagged: string[] = [];
    const { events, ended, context } = collector();
    const emit = context.emit;
    context.emit = (name, payload) => {
      tagged.push(JobEvent.parse(payload).jobId);
      emit(name, payload);
    };
    const input = {
      path: target,
      plan: 'standard',
      scale: 0.001,
      buffered: false,
      keepFiles: false,
      reserveBytes: 0,
      jobId: 'page-chose-this',
    };
    const reply = handlers['bench.start'](input, context);
    const { runId } = await reply;
    assert.notEqual(runId, 'page-chose-this', 'the runId stays the result id');
    assert.equal(events[0]?.type, 'plan-started');
    await assert.rejects(handlers['bench.start'](input, context), {
      code: 'EINVAL',
      message: 'A job with that id is running; use a new id.',
    });
    assert.equal(jobs.cancel('page-chose-this'), true);
    assert.equal((await ended).type, 'cancelled');
    assert.deepEqual(await readdir(target), [], 'its files are removed');
    assert.ok(tagged.length > 2 && tagged.every((id) => id === 'page-chose-this'));
    assert.ok(events.every((event) => event.runId === runId));
  });

  it('a run is a job of the registry: listed by its runId, cancelled by jobs.cancel', async () => {
    const handlers = benchHandlers(new ResultsStore(path.join(dataDir, 'results')), slowDrive);
    const jobEvents: JobEvent[] = [];
    let jobEnded: () => void = () => undefined;
    const jobEnd = new Promise<void>((resolve) => (jobEnded = resolve));
    const { ended, context } = collector();
    const emit = context.emit;
    context.emit = (name, payload) => {
      if (name === 'job.event') {
        const event = JobEvent.parse(payload);
        jobEvents.push(event);
        if (['done', 'failed', 'cancelled'].includes(event.type)) jobEnded();
      }
      emit(name, payload);
    };
    const start = { path: target, plan: 'standard', scale: 0.001, buffered: false };
    const { runId } = await handlers['bench.start'](
      { ...start, keepFiles: false, reserveBytes: 0 },
      context,
    );
    assert.equal(jobs.stateOf(runId), 'running');
    assert.ok(jobs.list().some((job) => job.jobId === runId && job.kind === 'bench'));
    assert.equal(jobs.cancel(runId), true);
    assert.equal((await ended).type, 'cancelled');
    await jobEnd;
    assert.equal(jobs.stateOf(runId), 'cancelled');
    assert.deepEqual([jobEvents[0]?.type, jobEvents.at(-1)?.type], ['started', 'cancelled']);
    assert.ok(jobEvents.every((event) => event.jobId === runId));
  });

  it('bench.start rejects a run the checks refuse, with the code and sentence, and sends nothing', async () => {
    const handlers = benchHandlers(
      new ResultsStore(path.join(dataDir, 'results')),
      () => new FakeDrive({ totalBytes: 1e9, availableBytes: 50e6 }),
    );
    const { events, context } = collector();
    const start = (input: Partial<Parameters<(typeof handlers)['bench.start']>[0]>) =>
      handlers['bench.start'](
        { path: target, plan: 'series', scale: 1, buffered: false, keepFiles: false, ...input },
        context,
      );
    await assert.rejects(start({}), {
      code: spaceGuardCode,
      message:
        /The series plan writes .* but only .* may be used here\. Plumb keeps .* free here\. What would work: freeing .* on this volume/,
    });
    const file = path.join(target, 'a-file');
    await writeFile(file, 'x');
    await assert.rejects(start({ path: file, scale: 0.001 }), {
      code: 'ENOTDIR',
      message: `${file} is a file, not a folder. Give a folder.`,
    });
    await assert.rejects(start({ path: path.join(target, 'missing'), scale: 0.001 }), {
      code: 'ENOENT',
    });
    await assert.rejects(start({ plan: 'paired', scale: 0.001 }), { code: 'EUSAGE' });
    assert.deepEqual(events, [], 'a refused run sends no event');
  });

  it('a run that fails after it started ends with a failed event', async () => {
    const handlers = benchHandlers(new ResultsStore(path.join(dataDir, 'results')), () => {
      const drive = new FakeDrive();
      // Another process fills the disk during the run: the guard stops it mid-way.
      drive.options.beforeWrite = (index, d) => {
        if (index === 5) d.externalBytes = d.options.availableBytes;
      };
      return drive;
    });
    const { events, ended, context } = collector();
    const { runId } = await handlers['bench.start'](
      {
        path: target,
        plan: 'series',
        scale: 0.001,
        buffered: false,
        keepFiles: false,
        reserveBytes: 0,
      },
      context,
    );
    const last = await ended;
    assert.equal(last.type, 'failed');
    assert.equal(last.runId, runId);
    assert.equal(last.type === 'failed' && last.error.code, 'ENOSPC');
    assert.equal(last.type === 'failed' && last.error.message, 'No space left on device');
    assert.equal(events.filter((e) => e.type === 'file-done').length, 5);
    assert.deepEqual(await readdir(target), [], 'its files are removed');
  });

  it('bench.start with "read-folder" times the files already there, and refuses an empty folder', async () => {
    const handlers = benchHandlers(
      new ResultsStore(path.join(dataDir, 'results')),
      () => new FakeDrive(),
    );
    const start = (folder: string, context: CallContext) =>
      handlers['bench.start'](
        { path: folder, plan: 'read-folder', scale: 1, buffered: false, keepFiles: false },
        context,
      );
    await assert.rejects(start(target, collector().context), {
      code: 'ENOENT',
      message: `There are no files with data under ${target} to read.`,
    });
    await writeFile(path.join(target, 'a.bin'), 'aaaa');
    await writeFile(path.join(target, 'b.bin'), 'bbbbbbbb');
    const { events, ended, context } = collector();
    const { runId } = await start(target, context);
    const last = await ended;
    assert.equal(last.type, 'finished');
    const document = await handlers['results.get']({ id: runId }, context);
    assert.equal(document.plan.name, 'read-folder');
    // The fake drive reads a file it did not write as one 4 KiB block.
    assert.deepEqual(
      document.files.map((f) => [f.phase, f.cumulativeBytes]),
      [
        ['read', 4096],
        ['read', 8192],
      ],
    );
    assert.equal(events.filter((e) => e.type === 'file-done').length, 2);
    assert.deepEqual((await readdir(target)).sort(), ['a.bin', 'b.bin'], 'nothing written');
  });

  it('bench.plans lists the built-ins and analysis.csv analyses text', async () => {
    const handlers = benchHandlers(new ResultsStore(dataDir), () => new FakeDrive());
    const { context } = collector();
    assert.deepEqual(
      (await handlers['bench.plans']({}, context)).plans.map((p) => p.name),
      ['standard', 'series', 'sustained', 'capacity', 'presets', 'paired', 'task'],
    );
    const document = await handlers['analysis.csv'](
      { csv: '100,1\n200,2\n', phase: 'read' },
      context,
    );
    assert.equal(document.summary.read.median, 100);
  });
});

describe('ProgressView', () => {
  const events = (runId: string): BenchEvent[] => [
    { type: 'plan-started', runId, plan: 'series', target: '/t', files: 2, bytes: 2e6 },
    { type: 'phase-started', runId, phase: 'write' },
    {
      type: 'sample',
      runId,
      phase: 'write',
      bytesDone: 5e5,
      totalBytes: 2e6,
      seconds: 1,
      bytesPerSecond: 5e5,
    },
    {
      type: 'file-done',
      runId,
      index: 0,
      count: 2,
      file: {
        phase: 'write',
        bytes: 1e6,
        seconds: 2,
        cumulativeBytes: 1e6,
        t: 2,
        temperatureC: null,
      },
      rate: 5e5,
    },
    { type: 'finished', runId, resultId: runId, findings: [] },
  ];
  const render = (isTTY: boolean) => {
    const stream = Object.assign(new PassThrough(), { isTTY, columns: 120 });
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const view = new ProgressView(stream);
    for (const event of events('r1')) view.handle(event);
    return text;
  };
  it('draws a bar with rate and time left on a terminal', () => {
    const text = render(true);
    const erase = '\r\u001b[2K';
    assert.ok(
      text.includes(`${erase}[######${'.'.repeat(18)}]  25%  write  500 KB/s  0:03 left`),
      text,
    );
    assert.doesNotMatch(text, /write 1\/2/);
  });
  it('prints plain lines, one per file, elsewhere', () => {
    const text = render(false);
    assert.equal(
      text,
      'plumb: series on /t (2 transfers, 2.00 MB)\nwrite:\n  write 1/2  1.00 MB in 2.000 s  500 KB/s\n',
    );
  });
});
