/** "Test a disk": set up a test, follow it live, read its verdict. */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { AppAbout } from '../../../../app/contract/app.js';
import type { PlumbClient } from '../../client.js';
import { GridSourceContext } from '../../ui/result/PresetsGridView.js';
import { LiveRunPanel } from './LiveRunPanel.js';
import { progressFraction, type LiveRun } from './live-run.js';
import { planTitle } from '../../ui/plan-catalogue.js';
import { runStoreFor } from './run-store.js';
import { SpeedResult } from './SpeedResult.js';
import { TestSetup } from './TestSetup.js';
import '../../ui/ui.css';
import './bench.css';
import '../../ui/result/grid.css';

/** Runs started with the one-button test, for this page's life (they end with two figures). */
const quickRuns = new Set<string>();

/** Progress for screen readers, in steps of a tenth so it is read out now and then, not always. */
function progressWords(live: LiveRun): string {
  const title = planTitle(live.planName);
  if (live.status === 'finished') return `${title} finished.`;
  if (live.status === 'cancelled') return `${title} cancelled.`;
  if (live.status === 'failed') return `${title} stopped.`;
  const fraction = progressFraction(live);
  if (fraction === null) return `${title} running.`;
  return `${title} running, ${Math.floor(fraction * 10) * 10} % done.`;
}

export function TestScreen({ client, about }: { client: PlumbClient; about: AppAbout | null }) {
  const store = runStoreFor(client);
  const session = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const liveRef = useRef<HTMLDivElement | null>(null);
  const focusRun = useRef(false);
  const runId = session?.live.runId;

  // After Start the setup (and its button) hides: focus goes to the live view, not the page body.
  useEffect(() => {
    if (runId && focusRun.current) {
      focusRun.current = false;
      liveRef.current?.focus();
    }
  }, [runId]);

  const quickResult =
    session && quickRuns.has(session.live.runId) && session.live.status === 'finished'
      ? session.live.resultId
      : null;

  return (
    <section className="screen bench-screen" aria-labelledby="test-title">
      <h1 id="test-title">Test a disk</h1>
      <p className="lede">
        Plumb writes real files and reads them back with the system cache out of the way, so the
        figures are what the disk does, not what memory does.
      </p>
      {session ? (
        <div
          ref={liveRef}
          className="live-focus"
          tabIndex={-1}
          role="region"
          aria-label="Test in progress"
          data-testid="live-view"
        >
          <p className="visually-hidden" role="status" aria-live="polite">
            {progressWords(session.live)}
          </p>
          {quickResult ? (
            <SpeedResult client={client} resultId={quickResult} onDismiss={() => store.dismiss()} />
          ) : (
            <GridSourceContext.Provider
              value={{
                volume: session.live.target,
                startedAt: new Date(session.startedAtMs).toISOString(),
              }}
            >
              <LiveRunPanel
                client={client}
                session={session}
                onCancel={() => void store.cancel()}
                onDismiss={() => store.dismiss()}
              />
            </GridSourceContext.Provider>
          )}
        </div>
      ) : null}
      {/* Kept mounted under a run, so "New test" finds the folder, test and options as left. */}
      <div hidden={session !== null}>
        <TestSetup
          client={client}
          about={about}
          historyKey={session ? `${session.live.runId}:${session.live.status}` : ''}
          onStart={async (request, plan, { quick, expected } = {}) => {
            focusRun.current = true;
            await store.start(request, plan, expected);
            const started = store.getSnapshot();
            if (quick && started) quickRuns.add(started.live.runId);
          }}
        />
      </div>
    </section>
  );
}
