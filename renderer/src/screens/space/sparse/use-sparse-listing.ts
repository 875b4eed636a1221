/**
 * A sparse-file job with a listId (the listing of sparse files, or the search for candidates):
 * started, followed through its progress events, cancelled, settled.
 */
import { useEffect, useRef, useState } from 'react';
import type { SparseFile, SparseListProgress } from '../../../../../app/contract/space.js';
import type { PlumbClient } from '../../../client.js';

export type JobState<T> =
  | { kind: 'idle' }
  | { kind: 'loading'; path: string; listId: string; progress: SparseListProgress | null }
  | { kind: 'done'; path: string; result: T }
  | { kind: 'cancelled'; path: string }
  | { kind: 'error'; message: string };

/** An id for a job, so its progress can be told apart and it can be cancelled. */
function newListId(): string {
  return (
    globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`
  );
}

export function useSparseJob<T>(
  client: PlumbClient,
  start: (path: string, listId: string) => Promise<T>,
  noPath: string,
) {
  const [job, setJob] = useState<JobState<T>>({ kind: 'idle' });
  const listIdRef = useRef<string | null>(null);

  useEffect(
    () =>
      client.on('space.sparse.progress', (progress) => {
        if (progress.listId !== listIdRef.current) return;
        setJob((s) =>
          s.kind === 'loading' && s.listId === progress.listId ? { ...s, progress } : s,
        );
      }),
    [client],
  );
  // Leaving the tab stops a job nobody will see.
  useEffect(
    () => () => {
      const listId = listIdRef.current;
      if (listId) client.call('space.sparse.cancel', { listId }).catch(() => undefined);
    },
    [client],
  );

  const load = async (path: string) => {
    if (!path) {
      setJob({ kind: 'error', message: noPath });
      return;
    }
    const listId = newListId();
    listIdRef.current = listId;
    setJob({ kind: 'loading', path, listId, progress: null });
    // Only the latest job may change what is shown.
    const settle = (next: JobState<T>) => {
      if (listIdRef.current !== listId) return;
      listIdRef.current = null;
      setJob(next);
    };
    try {
      await client.call('session.choosePath', { path });
      settle({ kind: 'done', path, result: await start(path, listId) });
    } catch (error) {
      const { code, message } = error as Error & { code?: string };
      settle(code === 'ECANCELED' ? { kind: 'cancelled', path } : { kind: 'error', message });
    }
  };
  const cancel = async () => {
    if (job.kind !== 'loading') return;
    await client.call('space.sparse.cancel', { listId: job.listId });
  };
  const reload = () => {
    if (job.kind === 'done') void load(job.path);
  };
  return { job, load, cancel, reload };
}

/** The listing of the sparse files under a folder. */
export function useSparseListing(client: PlumbClient) {
  const { job, ...rest } = useSparseJob<SparseFile[]>(
    client,
    (path, listId) => client.call('space.sparse.list', { path, listId }),
    'Type the path of a folder to list its sparse files.',
  );
  return { list: job, ...rest };
}
