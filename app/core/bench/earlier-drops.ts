import type { EarlierDrop } from '../analysis/drop-cause.js';
import type { ResultsStore } from './results-store.js';

/**
 * Where earlier runs of the same plan on the same folder's volume dropped, per phase, for telling a
 * cache (same bytes every time) from heat. Runs without a drop count as `atBytes: null`.
 */
export async function earlierDrops(
  store: ResultsStore,
  planName: string,
  volumePath: string,
  excludeId?: string,
): Promise<Partial<Record<'write' | 'read', EarlierDrop[]>>> {
  const drops: Record<'write' | 'read', EarlierDrop[]> = { write: [], read: [] };
  for (const item of await store.list()) {
    if (item.id === excludeId || item.plan !== planName || item.volumePath !== volumePath) continue;
    const document = await store.get(item.id).catch(() => null);
    if (!document) continue;
    for (const phase of ['write', 'read'] as const) {
      if (document.summary[phase].count === 0) continue;
      let drop: EarlierDrop = { atBytes: null, atSeconds: null };
      for (const f of document.findings) {
        if ((f.kind === 'cliff' || f.kind === 'throttling') && f.phase === phase) {
          drop = { atBytes: f.atBytes, atSeconds: f.atSeconds };
          break;
        }
      }
      drops[phase].push(drop);
    }
  }
  return drops;
}
