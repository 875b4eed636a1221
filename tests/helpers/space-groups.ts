/** Duplicate groups for unit tests of what is said and done with a scan's groups. */
import type { DuplicateGroup } from '../../app/contract/space.js';

/**
 * A group `id` of `copies` copies of a `size`-byte file, at /d/ID-0 (kept) to /d/ID-N: paths no
 * test makes, so nothing is read from them. `reclaimable` is shared evenly by the copies; null
 * makes every figure unknown.
 */
export function group(
  id: string,
  size: number,
  copies: number,
  reclaimable: number | null,
): DuplicateGroup {
  const files = Array.from({ length: copies + 1 }, (_, i) => ({
    path: `/d/${id}-${i}`,
    size,
    ino: i,
    mtimeMs: 0,
    ctimeMs: 0,
    links: 1,
    reclaimableBytes: i === 0 ? 0 : reclaimable === null ? null : reclaimable / copies,
    alreadyClone: reclaimable === null ? null : false,
  }));
  return {
    id,
    size,
    keeper: files[0]!.path,
    files,
    nominalBytes: size * copies,
    sharedBytes: reclaimable === null ? null : size * copies - reclaimable,
    reclaimableBytes: reclaimable,
    note: reclaimable === null ? 'The system cannot tell' : null,
  };
}
