/**
 * One scan for copies at a time: its progress from space events, the last scan kept, cancel, and
 * its groups a page at a time.
 */
import { useEffect, useRef, useState } from 'react';
import { firstGroupsPage } from '../../../../../app/common/groups-page.js';
import type { ScanProgress, ScanResult, SpaceEvent } from '../../../../../app/contract/space.js';
import type { PlumbClient } from '../../../client.js';
import { useJob } from '../../../jobs/use-job.js';

export type ScanState =
  | { kind: 'idle' }
  | { kind: 'scanning'; path: string; scanId: string | null; progress: ScanProgress | null }
  /** `result.groups` holds the groups loaded so far: the first page, then each one asked for. */
  | { kind: 'done'; result: ScanResult; savedAt?: string; groupCount: number }
  | { kind: 'cancelled'; path: string }
  | { kind: 'error'; message: string };

/**
 * `onStart` runs as a scan starts (what the last result was used for is over), `onDone` when a
 * scan's own done event arrives (its groups are new: nothing of them is chosen yet).
 */
export function useDuplicateScan(
  client: PlumbClient,
  { onStart, onDone }: { onStart: () => void; onDone: () => void },
) {
  const [scan, setScan] = useState<ScanState>({ kind: 'idle' });
  // The scan's id is chosen here before it starts (as its job's), so no event comes before it.
  const scanJob = useJob(client);
  const scanIdRef = useRef<string | null>(null);
  const onDoneRef = useRef(onDone);
  useEffect(() => {
    onDoneRef.current = onDone;
  });

  useEffect(() => {
    const handle = (event: SpaceEvent) => {
      const id = event.type === 'progress' ? event.progress.scanId : event.scanId;
      if (id !== scanIdRef.current) return;
      if (event.type === 'progress')
        setScan((s) => (s.kind === 'scanning' ? { ...s, progress: event.progress } : s));
      else if (event.type === 'done') {
        setScan({ kind: 'done', result: event.result, groupCount: event.groupCount });
        onDoneRef.current();
      } else if (event.type === 'cancelled')
        setScan((s) => ({ kind: 'cancelled', path: s.kind === 'scanning' ? s.path : '' }));
      else setScan({ kind: 'error', message: event.error.message });
    };
    const off = client.on('space.event', handle);
    return off;
  }, [client]);

  // Reopening the view shows the last scan kept (with its age) until a new one is started.
  useEffect(() => {
    let live = true;
    client.call('space.lastScan', {}).then(
      (saved) => {
        if (live && saved)
          setScan((s) =>
            s.kind === 'idle'
              ? {
                  kind: 'done',
                  result: saved.result,
                  savedAt: saved.savedAt,
                  groupCount: saved.groupCount,
                }
              : s,
          );
      },
      () => undefined, // nothing kept (or unreadable): the first steps stay
    );
    return () => {
      live = false;
    };
  }, [client]);

  const startScan = async (path: string) => {
    if (!path) {
      setScan({ kind: 'error', message: 'Type the path of a folder to look for copies in.' });
      return;
    }
    scanIdRef.current = null;
    onStart();
    setScan({ kind: 'scanning', path, scanId: null, progress: null });
    try {
      // The folder typed and submitted here is the one the server lets this session scan.
      await client.call('session.choosePath', { path });
      const { scanId } = await scanJob.run((jobId) => {
        scanIdRef.current = jobId;
        return client.call('space.scan', { path, jobId });
      });
      setScan((s) => (s.kind === 'scanning' ? { ...s, scanId } : s));
    } catch (error) {
      scanIdRef.current = null;
      setScan({ kind: 'error', message: (error as Error).message });
    }
  };

  const cancelScan = async () => {
    if (scan.kind !== 'scanning' || !scan.scanId) return;
    await scanJob.cancel();
  };

  /** The next page of the shown scan's groups, added after those loaded. */
  const loadMoreGroups = async () => {
    if (scan.kind !== 'done') return;
    const { scanId, groups } = scan.result;
    const page = await client.call('space.groups', { scanId, offset: groups.length });
    setScan((s) =>
      s.kind === 'done' && s.result.scanId === scanId && s.result.groups.length === page.offset
        ? {
            ...s,
            groupCount: page.groupCount,
            result: { ...s.result, groups: [...s.result.groups, ...page.groups] },
          }
        : s,
    );
  };

  /**
   * The shown scan as the server keeps it after an apply on it (the copies it changed): the same
   * scan, its choices still standing, brought up to date without scanning again, from its first
   * page (the pages loaded after it may have moved).
   */
  const refreshResult = async () => {
    if (scan.kind !== 'done') return;
    const { scanId } = scan.result;
    const page = await client
      .call('space.groups', { scanId, offset: 0, limit: firstGroupsPage })
      .catch(() => null);
    if (page)
      setScan((s) =>
        s.kind === 'done' && s.result.scanId === scanId
          ? { ...s, groupCount: page.groupCount, result: { ...page.figures, groups: page.groups } }
          : s,
      );
  };

  return { scan, startScan, cancelScan, loadMoreGroups, refreshResult };
}
