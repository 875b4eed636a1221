/**
 * The one registry of long-running work. Each job has the id its caller chose, an AbortSignal
 * that jobs.cancel (or the caller's own signal) aborts, and a progress reporter; its events go
 * out through one publisher, progress at most every `progressEveryMs` (the last one always, just
 * before the end), so a file-by-file apply over many small files does not flood a WebSocket.
 * Ended jobs are kept (the last few) with their last progress, so a page that subscribes late
 * (reloaded, or a second window) still learns how each ended, once, from jobs.list.
 */
import { performance } from 'node:perf_hooks';
import { PlumbError, toErrorPayload } from '../../contract/errors.js';
import type { JobEvent, JobInfo, JobKind, JobProgress, JobState } from '../../contract/jobs.js';
import type { CallContext } from '../dispatch.js';
import { sameSession } from '../event-hub.js';

export interface JobHandle {
  readonly jobId: string;
  /** Aborted by jobs.cancel or the caller's signal: stop at the next safe point. */
  readonly signal: AbortSignal;
  /** Reports how far the job has got (the seconds are the registry's). */
  progress(progress: Omit<JobProgress, 'seconds'>): void;
}

export interface JobSpec {
  jobId: string;
  kind: JobKind;
  /** The front end that started it: it gets the events even when not subscribed to the hub. */
  origin?: CallContext;
  /** Another reason to stop (the CLI's Ctrl-C, a closed page). */
  signal?: AbortSignal;
}

type Ending =
  { type: 'done' | 'cancelled' } | { type: 'failed'; error: { code: string; message: string } };

export type JobPublisher = (event: JobEvent, origin?: CallContext) => void;

interface Running {
  info: JobInfo;
  controller: AbortController;
  origin: CallContext | undefined;
  startedMs: number;
  lastSentMs: number;
  unsent: JobProgress | null;
}

export interface JobRegistryOptions {
  progressEveryMs?: number;
  keptEnded?: number;
  clockMs?: () => number;
}

export class JobRegistry {
  private readonly running = new Map<string, Running>();
  private readonly ended: Running[] = [];
  private readonly progressEveryMs: number;
  private readonly keptEnded: number;
  private readonly clockMs: () => number;

  constructor(
    private readonly publish: JobPublisher,
    options: JobRegistryOptions = {},
  ) {
    this.progressEveryMs = options.progressEveryMs ?? 100;
    this.keptEnded = options.keptEnded ?? 20;
    this.clockMs = options.clockMs ?? (() => performance.now());
  }

  /**
   * Runs `work` as the job `spec.jobId` and returns (or throws) what it does. It ends `cancelled`
   * when its signal was aborted by then, whether the work returned (an apply's report of what it
   * did before stopping) or threw; `failed` when it threw otherwise; `done` else.
   */
  async run<T>(spec: JobSpec, work: (job: JobHandle) => Promise<T>): Promise<T> {
    this.refuseRunning(spec.jobId);
    const controller = new AbortController();
    const stop = () => controller.abort();
    if (spec.signal?.aborted) stop();
    spec.signal?.addEventListener('abort', stop, { once: true });
    const now = this.clockMs();
    const job: Running = {
      info: {
        jobId: spec.jobId,
        kind: spec.kind,
        state: 'running',
        startedAt: new Date().toISOString(),
        progress: null,
        error: null,
      },
      controller,
      origin: spec.origin,
      startedMs: now,
      lastSentMs: -Infinity,
      unsent: null,
    };
    this.running.set(spec.jobId, job);
    const tag = { jobId: spec.jobId, kind: spec.kind };
    this.publish({ type: 'started', ...tag }, spec.origin);
    const handle: JobHandle = {
      jobId: spec.jobId,
      signal: controller.signal,
      progress: (progress) => this.progress(job, progress),
    };
    try {
      const result = await work(handle);
      this.end(job, { type: controller.signal.aborted ? 'cancelled' : 'done' });
      return result;
    } catch (error) {
      if (controller.signal.aborted) this.end(job, { type: 'cancelled' });
      else this.end(job, { type: 'failed', error: toErrorPayload(error) });
      throw error;
    } finally {
      spec.signal?.removeEventListener('abort', stop);
    }
  }

  /** Throws EINVAL when a job by that id is running (for work prepared before it runs). */
  refuseRunning(jobId: string): void {
    if (this.running.has(jobId)) {
      throw new PlumbError('EINVAL', 'A job with that id is running; use a new id.');
    }
  }

  /**
   * Asks the running job `jobId` to stop; false when none is running by that id (or, asked from a
   * session of `plumb serve`, none of that session's).
   */
  cancel(jobId: string, session?: object): boolean {
    const job = this.running.get(jobId);
    if (!job || !sameSession(job.origin?.session, session)) return false;
    if (job.info.state === 'running') job.info.state = 'cancelling';
    job.controller.abort();
    return true;
  }

  /** The state of the job `jobId`, running or among the last few ended; null when unknown. */
  stateOf(jobId: string): JobState | null {
    const running = this.running.get(jobId);
    if (running) return running.info.state;
    return this.ended.findLast((job) => job.info.jobId === jobId)?.info.state ?? null;
  }

  /** The running jobs and the last few that ended, oldest first (copies); a session's own only. */
  list(session?: object): JobInfo[] {
    return [...this.ended, ...this.running.values()]
      .filter((job) => sameSession(job.origin?.session, session))
      .map((job) => ({ ...job.info }))
      .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  }

  private progress(job: Running, progress: Omit<JobProgress, 'seconds'>): void {
    if (!this.running.has(job.info.jobId)) return;
    const now = this.clockMs();
    const full = { ...progress, seconds: Math.max(0, (now - job.startedMs) / 1000) };
    job.info.progress = full;
    if (now - job.lastSentMs < this.progressEveryMs) {
      job.unsent = full;
      return;
    }
    job.lastSentMs = now;
    job.unsent = null;
    this.publish({ type: 'progress', ...this.tag(job), progress: full }, job.origin);
  }

  private end(job: Running, outcome: Ending): void {
    this.running.delete(job.info.jobId);
    if (job.unsent) {
      this.publish({ type: 'progress', ...this.tag(job), progress: job.unsent }, job.origin);
    }
    job.info.state = outcome.type;
    job.info.error = outcome.type === 'failed' ? outcome.error : null;
    this.ended.push(job);
    while (this.ended.length > this.keptEnded) this.ended.shift();
    this.publish({ ...outcome, ...this.tag(job) }, job.origin);
  }

  private tag(job: Running): { jobId: string; kind: JobKind } {
    return { jobId: job.info.jobId, kind: job.info.kind };
  }
}
