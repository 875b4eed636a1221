/** The free space of a folder's volume, in the words every screen uses; nothing if unknown. */
import type { PlumbClient } from '../client.js';
import { freeSpaceText } from './free-space.js';
import { useVolumeInfo } from './use-volume-info.js';

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
  const info = useVolumeInfo(client, path, refresh);
  return info ? (
    <p className="free-space muted" data-testid="free-space">
      {lead}
      {freeSpaceText(info)}
    </p>
  ) : null;
}
