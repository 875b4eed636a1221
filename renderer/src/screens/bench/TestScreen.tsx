/** "Test a disk": set up a test, follow it live, read its verdict. */
import { useSyncExternalStore } from 'react';
import type { AppAbout } from '../../../../app/contract/app.js';
import type { PlumbClient } from '../../client.js';
import { LiveRunPanel } from './LiveRunPanel.js';
import { runStoreFor } from './run-store.js';
import { TestSetup } from './TestSetup.js';
import './bench.css';

export function TestScreen({ client, about }: { client: PlumbClient; about: AppAbout | null }) {
  const store = runStoreFor(client);
  const session = useSyncExternalStore(store.subscribe, store.getSnapshot);

  return (
    <section className="screen bench-screen" aria-labelledby="test-title">
      <h1 id="test-title">Test a disk</h1>
      <p className="lede">
        Plumb writes real files and reads them back with the system cache out of the way, so the
        figures are what the disk does, not what memory does.
      </p>
      {session ? (
        <LiveRunPanel
          client={client}
          session={session}
          onCancel={() => void store.cancel()}
          onDismiss={() => store.dismiss()}
        />
      ) : null}
      {/* Kept mounted under a run, so "New test" finds the folder, test and options as left. */}
      <div hidden={session !== null}>
        <TestSetup
          client={client}
          about={about}
          historyKey={session ? `${session.live.runId}:${session.live.status}` : ''}
          onStart={(request, plan) => store.start(request, plan)}
        />
      </div>
    </section>
  );
}
