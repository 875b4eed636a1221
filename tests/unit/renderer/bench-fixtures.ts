/** Result documents shaped like the engine's, built from a simple drive model for view tests. */
import type {
  FileRecord,
  Finding,
  PhaseSummary,
  ResultDocument,
} from '../../../app/contract/bench-result.js';
import { withHeadline } from '../../../app/core/analysis/headline-rate.js';

export function emptySummary(count = 0): PhaseSummary {
  return {
    count,
    mean: null,
    median: null,
    min: null,
    max: null,
    sd: null,
    trimmedMean: null,
    theilSen: { rate: null, latency: null },
    linear: { rate: null, latency: null, r2: null },
    bySize: [],
  };
}

/**
 * Files written by a drive that runs at `fastRate` until `cacheBytes`, then at `slowRate`, each
 * file also paying `latencySeconds`; then read back at `readRate`.
 */
export function modelFiles(options: {
  sizes: number[];
  fastRate: number;
  slowRate: number;
  cacheBytes: number;
  readRate: number;
  latencySeconds: number;
}): FileRecord[] {
  const files: FileRecord[] = [];
  let written = 0;
  let t = 0;
  for (const bytes of options.sizes) {
    const rate = written < options.cacheBytes ? options.fastRate : options.slowRate;
    const seconds = options.latencySeconds + bytes / rate;
    written += bytes;
    t += seconds;
    files.push({ phase: 'write', bytes, seconds, cumulativeBytes: written, t, temperatureC: null });
  }
  let read = 0;
  t = 0;
  for (const bytes of options.sizes) {
    const seconds = options.latencySeconds + bytes / options.readRate;
    read += bytes;
    t += seconds;
    files.push({ phase: 'read', bytes, seconds, cumulativeBytes: read, t, temperatureC: null });
  }
  return files;
}

export function resultDocument(
  id: string,
  files: FileRecord[],
  overrides: Partial<ResultDocument> = {},
  findings: Finding[] = [],
): ResultDocument {
  const median = (phase: 'write' | 'read') => {
    const rates = files
      .filter((f) => f.phase === phase)
      .map((f) => f.bytes / f.seconds)
      .sort((a, b) => a - b);
    return rates.length ? rates[Math.floor(rates.length / 2)]! : null;
  };
  const write = {
    ...emptySummary(files.filter((f) => f.phase === 'write').length),
    median: median('write'),
  };
  const read = {
    ...emptySummary(files.filter((f) => f.phase === 'read').length),
    median: median('read'),
  };
  // The engine stores each result's headline (app/core/analysis/headline-rate.ts).
  return withHeadline({
    schema: 'plumb.result/2',
    scale: 1,
    id,
    startedAt: '2025-11-22T10:00:00.000Z',
    app: { version: '0.1.0' },
    environment: {
      os: 'Linux',
      volume: { path: '/mnt/fast', fsType: 'ext4', totalBytes: 2e12, freeBytes: 1e12, bus: 'nvme' },
      cacheMode: 'direct',
    },
    plan: { name: 'standard' },
    files,
    summary: { write, read },
    findings,
    ...overrides,
  });
}
