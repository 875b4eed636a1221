/**
 * What the test setup offers: mounted volumes and built-in plans, read once; earlier results,
 * read again whenever `historyKey` changes (a run ended), so estimates use the newest.
 */
import { useEffect, useState } from 'react';
import type { ResultListItem } from '../../../../../app/contract/bench.js';
import type { Plan } from '../../../../../app/contract/plan.js';
import type { MountedVolume } from '../../../../../app/contract/volumes.js';
import type { PlumbClient } from '../../../client.js';
import { useRefreshTick } from '../../../ui/use-refresh-tick.js';

/** A banner under the setup: an error, or news such as an imported plan. */
export interface SetupMessage {
  tone: 'error' | 'info';
  text: string;
}

/** `onMessage` must keep its identity (a state setter): the lists are read once per client. */
export function useSetupLists(
  client: PlumbClient,
  onMessage: (message: SetupMessage) => void,
  historyKey: string,
) {
  const [volumes, setVolumes] = useState<MountedVolume[] | null>(null);
  const [volumesError, setVolumesError] = useState<string | null>(null);
  const [history, setHistory] = useState<ResultListItem[]>([]);
  const [builtins, setBuiltins] = useState<Plan[]>([]);

  // The volumes' free space is read again whenever it may have changed (see useRefreshTick).
  const tick = useRefreshTick();
  useEffect(() => {
    client.call('volumes.list', {}).then(
      ({ volumes: list }) => {
        setVolumes(list);
        setVolumesError(null);
      },
      (error: Error) => {
        setVolumes([]);
        setVolumesError(error.message);
      },
    );
  }, [client, tick]);

  useEffect(() => {
    client.call('bench.plans', {}).then(
      ({ plans: list }) => setBuiltins(list),
      (error: Error) => onMessage({ tone: 'error', text: error.message }),
    );
  }, [client, onMessage]);

  useEffect(() => {
    client.call('results.list', {}).then(
      ({ results }) => setHistory(results),
      () => setHistory([]),
    );
  }, [client, historyKey]);

  return { volumes, volumesError, history, builtins };
}
