/**
 * The bench and results operations of the contract: runs started here go on in the background
 * as jobs, report through their `job.event`s to the caller and every subscribed front end, can
 * be listed again (a reloaded page) and are cancelled by jobs.cancel.
 */
import { randomUUID } from 'node:crypto';
import type { BenchEvent } from '../../contract/bench-events.js';
import type { Plan } from '../../contract/plan.js';
import type { Handlers } from '../dispatch.js';
import { eventHub, sameSession, type EventHub } from '../event-hub.js';
import type { JobHandle } from '../jobs/registry.js';
import { jobs } from '../jobs/service.js';
import { appVersion } from '../version.js';
import { analyzeCsvOffThread } from './analyze-off-thread.js';
import { nativeBenchIO, type BenchIO } from './bench-io.js';
import { builtinPlans } from './builtin-plans.js';
import { newResultId, resultCsv, type ResultsStore } from './results-store.js';
import { RunTracker } from './run-tracker.js';
import { reserveFloor } from '../../common/reserve.js';
import { benchPlan, chosenCeiling, prepareBenchRun } from './start.js';

type BenchOperation =
  | 'bench.plans'
  | 'bench.start'
  | 'bench.running'
  | 'results.list'
  | 'results.get'
  | 'results.delete'
  | 'results.rename'
  | 'results.exportCsv'
  | 'analysis.csv';

/**
 * What each run going on in this process has reported, by runId, for bench.running (a reloaded
 * page draws it again), with the session that started it (a `plumb serve` sign-in sees its own);
 * the runs themselves are jobs of the registry, cancelled through it.
 */
const running = new Map<string, { tracker: RunTracker; session: object | undefined }>();

/** A run's event as job progress: files done of the plan's, and bytes of the run's total. */
function jobProgress(event: BenchEvent, job: JobHandle, tracker: RunTracker): void {
  if (event.type !== 'sample' && event.type !== 'file-done' && event.type !== 'phase-started')
    return;
  const run = tracker.figures();
  job.progress({
    phase: run.phase,
    done: run.filesDone,
    total: run.plannedFiles,
    bytesDone: run.bytesDone,
    bytesTotal: run.totalBytes,
  });
}

export function benchHandlers(
  store: ResultsStore,
  io: () => BenchIO = nativeBenchIO,
  hub: EventHub = eventHub,
): Pick<Handlers, BenchOperation> {
  return {
    'bench.plans': async () => ({ plans: [...builtinPlans] as Plan[] }),
    'bench.start': async (input, context) => {
      const plan = await benchPlan(input.plan, input.scale);
      const runId = newResultId();
      const jobId = input.jobId ?? runId;
      jobs.refuseRunning(jobId);
      const controller = new AbortController();
      const tracker = new RunTracker({
        runId,
        jobId,
        plan,
        planName: plan?.name ?? 'read-folder',
        target: input.path,
        request: {
          path: input.path,
          scale: input.scale,
          buffered: input.buffered,
          keepFiles: input.keepFiles,
          ...(input.totalBytes === undefined ? {} : { totalBytes: input.totalBytes }),
          ...(input.pairedWith === undefined ? {} : { pairedWith: input.pairedWith }),
          ...(input.direction === undefined ? {} : { direction: input.direction }),
        },
      });
      // The checks (folder, volume, free-space guard) run before the reply, so a refusal rejects
      // the call with its code and sentence; anything later ends in a `failed` event.
      // From a page or window the user may set the reserve (an advanced option), but never
      // below the floor: a socket cannot switch the guard off.
      let job: JobHandle | undefined;
      const prepared = await prepareBenchRun(
        { ...input, plan, reserveFloor },
        {
          runId,
          signal: controller.signal,
          emit: (event: BenchEvent) => {
            tracker.apply(event);
            hub.publish('job.event', { type: 'bench', jobId, kind: 'bench', event }, context);
            if (job) jobProgress(event, job, tracker);
          },
          store,
          io: io(),
        },
      );
      jobs.refuseRunning(jobId); // again: another call may have taken the id meanwhile
      running.set(runId, { tracker, session: context.session });
      void jobs
        .run({ jobId, kind: 'bench', origin: context }, (handle) => {
          job = handle;
          handle.signal.addEventListener('abort', () => controller.abort(), { once: true });
          return prepared.run();
        })
        .catch(() => undefined) // reported as a `failed` or `cancelled` event
        .finally(() => running.delete(runId));
      return { runId };
    },
    'bench.running': async (_input, context) => ({
      runs: [...running.values()]
        .filter((run) => sameSession(run.session, context.session))
        .map((run) => run.tracker.snapshot()),
    }),
    'results.list': async () => ({ results: await store.list() }),
    'results.get': async ({ id }) => store.get(id),
    'results.delete': async ({ id }) => ({ deleted: await store.delete(id) }),
    'results.rename': async ({ id, name }) => store.rename(id, name),
    'results.exportCsv': async ({ id }) => {
      const document = await store.get(id);
      return { fileName: `plumb-${document.id}.csv`, csv: resultCsv(document) };
    },
    'analysis.csv': async ({ csv, phase, interface: ceilingId, jobId }, context) => {
      const options = { phase, ceiling: chosenCeiling(ceilingId), appVersion: appVersion() };
      return jobs.run(
        { jobId: jobId ?? randomUUID(), kind: 'analysis', origin: context, signal: context.closed },
        (job) => analyzeCsvOffThread(csv, options, job.signal),
      );
    },
  };
}
