/**
 * The run in progress, kept outside any one screen so it survives moving between views: starts
 * and cancels through the client, folds `bench.event`s into a LiveRun, and tells subscribers at
 * most a few times a second (a fast disk reports far more often than anyone can read). A run
 * already going when the page loads (a reload, another window) is picked up from `bench.running`.
 */
import type { RunningBench, StartBenchInput } from '../../../../app/contract/bench.js';
import type { BenchEvent } from '../../../../app/contract/bench-events.js';
import type { Plan } from '../../../../app/contract/plan.js';
import type { PlumbClient } from '../../client.js';
import { rememberFolder } from '../../session.js';
import { applyBenchEvent, newLiveRun, type LiveRun } from './live-run.js';
import { inSnapshot, liveRunFromSnapshot } from './live-snapshot.js';

export interface RunSession {
  live: LiveRun;
  /** The plan; null for reading a folder. */
  plan: Plan | null;
  request: StartBenchInput;
  /** The viewer's clock when the run started and ended (for elapsed time between samples). */
  startedAtMs: number;
  endedAtMs: number | null;
}

const notifyEveryMs = 150;

export class RunStore {
  private session: RunSession | null = null;
  private starting = false;
  private attaching = true;
  private early: BenchEvent[] = [];
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly client: PlumbClient) {
    client.on('bench.event', (event) => this.receive(event));
    void this.attach();
  }

  /** Follows a run that was already going when this page loaded. */
  private async attach(): Promise<void> {
    let runs: RunningBench[] = [];
    try {
      ({ runs } = await this.client.call('bench.running', {}));
    } catch {
      // Nothing to pick up: the page starts with the test setup, as it would anyway.
    }
    const snapshot = runs.at(-1);
    if (snapshot && !this.session && !this.starting) {
      let live = liveRunFromSnapshot(snapshot);
      for (const event of this.early)
        if (event.runId === snapshot.runId && !inSnapshot(snapshot, event))
          live = applyBenchEvent(live, event);
      const ended = live.status !== 'running';
      this.session = {
        live,
        plan: snapshot.plan,
        request: snapshot.request,
        startedAtMs: Date.now() - snapshot.seconds * 1000,
        endedAtMs: ended ? Date.now() : null,
      };
    }
    this.attaching = false;
    if (!this.starting) this.early = [];
    this.notify(true);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): RunSession | null => this.session;

  get running(): boolean {
    return this.starting || this.session?.live.status === 'running';
  }

  /** Starts a run; rejects (with the engine's message) when the engine refuses it. */
  async start(request: StartBenchInput, plan: Plan | null): Promise<void> {
    if (this.running)
      throw new Error('A test is already running. Cancel it or wait for it to end.');
    this.starting = true;
    this.session = null;
    this.early = [];
    try {
      const startedAtMs = Date.now();
      // Pressing Start confirms the folders shown: the server runs only on folders so chosen.
      await this.client.call('session.choosePath', { path: request.path });
      if (request.pairedWith !== undefined)
        await this.client.call('session.choosePath', { path: request.pairedWith });
      const { runId } = await this.client.call('bench.start', request);
      rememberFolder(request.path);
      let live = newLiveRun(runId, plan?.name ?? 'read-folder', request.path);
      for (const event of this.early) live = applyBenchEvent(live, event);
      this.session = { live, plan, request, startedAtMs, endedAtMs: null };
    } finally {
      this.starting = false;
      this.early = [];
    }
    this.notify(true);
  }

  /** Asks the engine to stop; its files are removed and a `cancelled` event follows. */
  async cancel(): Promise<void> {
    const session = this.session;
    if (!session || session.live.status !== 'running') return;
    const { cancelled } = await this.client.call('bench.cancel', { runId: session.live.runId });
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

  private receive(event: BenchEvent): void {
    if ((this.starting || this.attaching) && !this.session) {
      this.early.push(event);
      return;
    }
    const session = this.session;
    if (!session || event.runId !== session.live.runId) return;
    const live = applyBenchEvent(session.live, event);
    const ended = live.status !== 'running';
    this.session = { ...session, live, endedAtMs: ended ? Date.now() : null };
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
