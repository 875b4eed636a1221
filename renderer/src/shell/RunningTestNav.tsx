/** The sidebar line under "Test a disk" while a test runs (or just ended), seen from any section. */
import { useSyncExternalStore } from 'react';
import { formatPercent } from '../../../app/common/format.js';
import type { PlumbClient } from '../client.js';
import { progressFraction } from '../screens/bench/live-run.js';
import { planTitle } from '../ui/plan-catalogue.js';
import { runStoreFor } from '../screens/bench/run-store.js';

const endedText = { finished: 'Test finished', failed: 'Test failed', cancelled: 'Test cancelled' };

export function RunningTestNav({ client }: { client: PlumbClient }) {
  const store = runStoreFor(client);
  const session = useSyncExternalStore(store.subscribe, store.getSnapshot);
  if (!session) return null;
  const { live } = session;
  const fraction = progressFraction(live);
  const text =
    live.status === 'running'
      ? `Testing ${planTitle(live.planName)}${fraction === null ? '…' : ` · ${formatPercent(fraction)}`}`
      : endedText[live.status];
  return (
    <span
      className={`nav-run nav-run-${live.status}`}
      role="status"
      aria-label="Test in progress"
      data-testid="nav-run"
    >
      {live.status === 'running' ? <span className="nav-run-dot" aria-hidden="true" /> : null}
      {text}
    </span>
  );
}
