/** The one way every screen gives a volume's free space: "41.2 GB free of 256 GB". */
import { formatBytes } from '../../../app/common/format.js';

export function freeSpaceText(volume: {
  availableBytes: number;
  totalBytes: number;
  readOnly?: boolean | null;
}): string {
  const free = `${formatBytes(volume.availableBytes)} free of ${formatBytes(volume.totalBytes)}`;
  return volume.readOnly ? `${free} · read-only` : free;
}
