/**
 * The run in progress, kept outside any one screen so it survives moving between views: starts
 * a run as a job whose id is chosen here first (so every event of the run, even those that come
 * before `bench.start` answers, is its own), folds the run's `job.event`s into a LiveRun, cancels
 * it through jobs.cancel, and tells subscribers at most a few times a second (a fast disk reports
 * far more often than anyone can read). A run already going when the page loads (a reload,
 * another window) is picked up from `bench.running`.
 */
import type { StartBenchInput } from '../../../../app/contract/bench.js';
import type { BenchEvent } from '../../../../app/contract/bench-events.js';
import type { Plan } from '../../../../app/contract/plan.js';
import type { PlumbClient } from '../../client.js';
import { newJobId } from '../../jobs/use-job.js';
import { rememberFolder } from '../../session.js';
import { applyBenchEvent, newLiveRun, type LiveRun, type RunExpectation } from './live-run.js';
import { liveRunFromSnapshot } from './live-snapshot.js';

export interface RunSession {
  /** The run's job: its events come tagged with this id, and jobs.cancel stops it by it. */
  jobId: string;
  live: LiveRun;
  /** The plan; null for reading a folder. */
  plan: Plan | null;
  request: StartBenchInput;
  /** The viewer's clock when the run started and ended (for elapsed time between samples). */
  startedAtMs: number;
  endedAtMs: number | null;
  /** What the run was expected to take as it started (its time left follows from it); null for a run picked up. */
  expected: RunExpectation | null;
  /** The viewer's clock when the run's first write or read phase began, null before. */
  workStartedAtMs: number | null;
}

const notifyEveryMs = 150;

/** `session` with the viewer's clock noted when `event` starts its first write or read phase. */
function withWorkStart(session: RunSession, event: BenchEvent): RunSession {
  const working =
    event.type === 'phase-started' && (event.phase === 'write' || event.phase === 'read');
  return working && session.workStartedAtMs === null
    ? { ...session, workStartedAtMs: Date.now() }
    : session;
}

export class RunStore {
  private session: RunSession | null = null;
  /** A run being started: not shown until `bench.start` accepts it, but followed already. */
  private starting: RunSession | null = null;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly client: PlumbClient) {
    client.on('job.event', (event) => {
      if (event.type === 'bench') this.receive(event.jobId, event.event);
    });
    void this.attach();
  }

  /**
   * Follows a run that was already going when this page loaded. Its events that came before the
   * reply are in the snapshot (it is taken as the reply leaves, on the connection the events
   * take), so they are not followed; those after it are.
   */
  private async attach(): Promise<void> {
    const snapshot = await this.client.call('bench.running', {}).then(
      ({ runs }) => runs.at(-1),
      () => undefined, // nothing to pick up: the page starts with the test setup, as it would anyway
    );
    if (snapshot && !this.session && !this.starting) {
      this.session = {
        jobId: snapshot.jobId,
        live: liveRunFromSnapshot(snapshot),
        plan: snapshot.plan,
        request: snapshot.request,
        startedAtMs: Date.now() - snapshot.seconds * 1000,
        endedAtMs: null,
        expected: null,
        workStartedAtMs: null,
      };
    }
    this.notify(true);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): RunSession | null => this.session;

  get running(): boolean {
    return this.starting !== null || this.session?.live.status === 'running';
  }

  /** Starts a run; rejects (with the engine's message) when the engine refuses it. */
  async start(
    request: StartBenchInput,
    plan: Plan | null,
    expected: RunExpectation | null = null,
  ): Promise<void> {
    if (this.running)
      throw new Error('A test is already running. Cancel it or wait for it to end.');
    const jobId = newJobId();
    // The run's id comes with its first event or the reply, whichever is first.
    const starting: RunSession = {
      jobId,
      live: newLiveRun('', plan?.name ?? 'read-folder', request.path),
      plan,
      request,
      startedAtMs: Date.now(),
      endedAtMs: null,
      expected,
      workStartedAtMs: null,
    };
    this.starting = starting;
    this.session = null;
    try {
      // Pressing Start confirms the folders shown: the server runs only on folders so chosen.
      await this.client.call('session.choosePath', { path: request.path });
      if (request.pairedWith !== undefined)
        await this.client.call('session.choosePath', { path: request.pairedWith });
      const { runId } = await this.client.call('bench.start', { ...request, jobId });
      rememberFolder(request.path);
      const followed = this.starting ?? starting;
      const live = followed.live.runId ? followed.live : { ...followed.live, runId };
      this.session = { ...followed, live };
    } finally {
      this.starting = null;
    }
    this.notify(true);
  }

  /** Asks the engine to stop; its files are removed and a `cancelled` event follows. */
  async cancel(): Promise<void> {
    const session = this.session;
    if (!session || session.live.status !== 'running') return;
    const { cancelled } = await this.client.call('jobs.cancel', { jobId: session.jobId });
    if (!cancelled && this.session === session && session.live.status === 'running') {
      // The engine has no such run: it stopped before reporting why (or the report was lost).
      this.update({
        ...session.live,
        status: 'failed',
        error: {
          code: 'ESTOPPED',
          message:
            'The test stopped before it could report why. Check the folder and free space, then try again.',
        },
        version: session.live.version + 1,
      });
    }
  }

  /** Forgets a finished, failed or cancelled run, back to choosing a test. */
  dismiss(): void {
    if (this.session?.live.status === 'running') return;
    this.session = null;
    this.notify(true);
  }

  private receive(jobId: string, event: BenchEvent): void {
    const starting = this.starting;
    if (starting?.jobId === jobId) {
      const live = starting.live.runId ? starting.live : { ...starting.live, runId: event.runId };
      this.starting = { ...withWorkStart(starting, event), live: applyBenchEvent(live, event) };
      return;
    }
    const session = this.session;
    if (!session || session.jobId !== jobId) return;
    const live = applyBenchEvent(session.live, event);
    const ended = live.status !== 'running';
    this.session = { ...withWorkStart(session, event), live, endedAtMs: ended ? Date.now() : null };
    this.notify(ended);
  }

  private update(live: LiveRun): void {
    if (!this.session) return;
    this.session = { ...this.session, live, endedAtMs: Date.now() };
    this.notify(true);
  }

  private notify(now: boolean): void {
    if (now) {
      clearTimeout(this.timer);
      this.timer = undefined;
      for (const listener of this.listeners) listener();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      for (const listener of this.listeners) listener();
    }, notifyEveryMs);
  }
}

const stores = new WeakMap<PlumbClient, RunStore>();

export function runStoreFor(client: PlumbClient): RunStore {
  let store = stores.get(client);
  if (!store) {
    store = new RunStore(client);
    stores.set(client, store);
  }
  return store;
}
