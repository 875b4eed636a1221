/**
 * The facts of a folder's volume (free space, read-only, …), read again whenever they may have
 * gone stale (see useRefreshTick) and when `refresh` changes; null until read, if unknown, or
 * without a path.
 */
import { useEffect, useState } from 'react';
import type { VolumeInfo } from '../../../app/contract/volume.js';
import type { PlumbClient } from '../client.js';
import { useRefreshTick } from './use-refresh-tick.js';

export function useVolumeInfo(
  client: PlumbClient,
  path: string | null,
  refresh?: unknown,
): VolumeInfo | null {
  const [info, setInfo] = useState<VolumeInfo | null>(null);
  const tick = useRefreshTick();
  useEffect(() => {
    if (!path) {
      setInfo(null);
      return;
    }
    let live = true;
    client.call('volume.info', { path }).then(
      (read) => live && setInfo(read),
      () => live && setInfo(null),
    );
    return () => {
      live = false;
    };
  }, [client, path, refresh, tick]);
  return info;
}
