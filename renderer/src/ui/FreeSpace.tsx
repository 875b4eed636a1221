/** The free space of a folder's volume, in the words every screen uses; nothing if unknown. */
import { useEffect, useState } from 'react';
import type { PlumbClient } from '../client.js';
import { freeSpaceText } from './free-space.js';
import { useRefreshTick } from './use-refresh-tick.js';

export function FreeSpace({
  client,
  path,
  refresh,
  lead = '',
}: {
  client: PlumbClient;
  path: string;
  /** Words before the figure, e.g. "On this volume: ". */
  lead?: string;
  /** Changes when the free space may have changed (a scan, an apply). */
  refresh?: unknown;
}) {
  const [text, setText] = useState<string | null>(null);
  const tick = useRefreshTick();
  useEffect(() => {
    let live = true;
    client.call('volume.info', { path }).then(
      (info) => live && setText(freeSpaceText(info)),
      () => live && setText(null),
    );
    return () => {
      live = false;
    };
  }, [client, path, refresh, tick]);
  return text ? (
    <p className="free-space muted" data-testid="free-space">
      {lead}
      {text}
    </p>
  ) : null;
}
