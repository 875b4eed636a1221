/**
 * What removing duplicate copies frees, from the scan alone (a disk without clones can only
 * remove them: moved to the Trash, then deleted from it). The confirmation gives the exact
 * allocated figure per file.
 */

/** What these figures need of a duplicate group (the contract's DuplicateGroup). */
interface Group {
  keeper: string;
  files: readonly { path: string; size: number; links: number }[];
}

/**
 * What removing a group's copies would free about: each copy's size, except a name of a file with
 * other names (a hard link), which frees nothing.
 */
export function removableBytes(group: Group): number {
  return group.files
    .filter((f) => f.path !== group.keeper && f.links === 1)
    .reduce((sum, f) => sum + f.size, 0);
}

/**
 * The scan with `totals.removableBytes` over all its groups, so a view showing a page of them
 * can still say what removing every copy frees.
 */
export function withRemovableTotal<
  Result extends { groups: readonly Group[]; totals: { removableBytes?: number } },
>(result: Result): Result {
  const removable = result.groups.reduce((sum, g) => sum + removableBytes(g), 0);
  return { ...result, totals: { ...result.totals, removableBytes: removable } };
}
