/** A sparse-file listing: started, followed through its progress events, cancelled, settled. */
import { useEffect, useRef, useState } from 'react';
import type { SparseFile, SparseListProgress } from '../../../../../app/contract/space.js';
import type { PlumbClient } from '../../../client.js';

export type ListState =
  | { kind: 'idle' }
  | { kind: 'loading'; path: string; listId: string; progress: SparseListProgress | null }
  | { kind: 'done'; path: string; files: SparseFile[] }
  | { kind: 'cancelled'; path: string }
  | { kind: 'error'; message: string };

/** An id for a listing, so its progress can be told apart and it can be cancelled. */
function newListId(): string {
  return (
    globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`
  );
}

export function useSparseListing(client: PlumbClient) {
  const [list, setList] = useState<ListState>({ kind: 'idle' });
  const listIdRef = useRef<string | null>(null);

  useEffect(
    () =>
      client.on('space.sparse.progress', (progress) => {
        if (progress.listId !== listIdRef.current) return;
        setList((s) =>
          s.kind === 'loading' && s.listId === progress.listId ? { ...s, progress } : s,
        );
      }),
    [client],
  );
  // Leaving the tab stops a listing nobody will see.
  useEffect(
    () => () => {
      const listId = listIdRef.current;
      if (listId) client.call('space.sparse.cancel', { listId }).catch(() => undefined);
    },
    [client],
  );

  const load = async (path: string) => {
    if (!path) {
      setList({ kind: 'error', message: 'Type the path of a folder to list its sparse files.' });
      return;
    }
    const listId = newListId();
    listIdRef.current = listId;
    setList({ kind: 'loading', path, listId, progress: null });
    // Only the latest listing may change what is shown.
    const settle = (next: ListState) => {
      if (listIdRef.current !== listId) return;
      listIdRef.current = null;
      setList(next);
    };
    try {
      await client.call('session.choosePath', { path });
      const files = await client.call('space.sparse.list', { path, listId });
      settle({ kind: 'done', path, files });
    } catch (error) {
      const { code, message } = error as Error & { code?: string };
      settle(code === 'ECANCELED' ? { kind: 'cancelled', path } : { kind: 'error', message });
    }
  };
  const cancel = async () => {
    if (list.kind !== 'loading') return;
    await client.call('space.sparse.cancel', { listId: list.listId });
  };
  const reload = () => {
    if (list.kind === 'done') void load(list.path);
  };
  return { list, load, cancel, reload };
}
