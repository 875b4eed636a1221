/**
 * Volumes that draw on one pool of free space. Each APFS volume of a container reports the
 * container's free space: two cards reading "600 GB free" hold 600 GB between them, not 1.2 TB.
 */
import { listInWords } from '../../../../app/common/format.js';
import type { MountedVolume } from '../../../../app/contract/volumes.js';

/** For each volume, in order, the names of the other listed volumes in its container. */
export function spaceSiblings(volumes: readonly MountedVolume[]): string[][] {
  return volumes.map((volume) =>
    volume.container === null
      ? []
      : volumes
          .filter((other) => other !== volume && other.container === volume.container)
          .map((other) => other.name),
  );
}

/** The line a volume's card shows when its free space is also its siblings'; null when its own. */
export function sharedSpaceText(siblings: readonly string[]): string | null {
  if (siblings.length === 0) return null;
  return `The same free space as ${listInWords(siblings)} (one container): count it once.`;
}
