/** Narrowing candidate groups of files step by step: by size, by a partial key, by a full hash. */

/** Runs `work` over `items` with at most `limit` running at once; results keep the input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      const index = next;
      next += 1;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(runners);
  return results;
}

/** Groups of at least two items sharing a key, in first-seen order. */
export function groupsOf<T, K>(items: readonly T[], keyOf: (item: T) => K): T[][] {
  const byKey = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = byKey.get(key);
    if (list) list.push(item);
    else byKey.set(key, [item]);
  }
  return [...byKey.values()].filter((list) => list.length > 1);
}

/**
 * Splits every group by an asynchronous key (computed for all members of all groups, `limit` at a
 * time) and keeps the sub-groups of two or more. Members whose key fails are dropped and counted.
 */
export async function refineGroups<T>(
  groups: readonly T[][],
  keyOf: (item: T) => Promise<string>,
  limit: number,
  signal?: AbortSignal,
): Promise<{ groups: T[][]; keys: Map<T, string>; failed: number }> {
  const members = groups.flat();
  let failed = 0;
  const keys = await mapLimit(
    members,
    limit,
    async (item) => {
      try {
        return await keyOf(item);
      } catch (error) {
        if (signal?.aborted) throw error;
        failed += 1;
        return null;
      }
    },
    signal,
  );
  const keyed = new Map<T, string>();
  members.forEach((item, index) => {
    const key = keys[index];
    if (key !== null && key !== undefined) keyed.set(item, key);
  });
  const refined = groups.flatMap((group) =>
    groupsOf(
      group.filter((item) => keyed.has(item)),
      (item) => keyed.get(item)!,
    ),
  );
  return { groups: refined, keys: keyed, failed };
}
