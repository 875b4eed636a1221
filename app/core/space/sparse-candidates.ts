/**
 * Files that are not sparse yet but would shrink if their runs of zeros became holes: the large
 * files under a folder (found by the scan engine's walk), each read for whole blocks of zeros as
 * `punchZeros` reads them in a dry run. Listed with the bytes punching would free and the seeds'
 * warning; nothing is changed.
 */
import type { SparseCandidate } from '../../contract/space.js';
import { loadNative } from '../native/load.js';
import { punchWarning, punchZeros } from './sparse.js';

/** Files smaller than this are not worth the read (a VM image or a database is far larger). */
export const candidateMinBytes = 64 * 1024 * 1024;
/** Zeros below this are not worth a hole map (and an app's next write may fill them). */
export const candidateMinZeroBytes = 1024 * 1024;

export interface CandidateOptions {
  minBytes?: number;
  signal?: AbortSignal;
}

/** Candidates under `folder`, most to free first; `warning` is the seeds' caution. */
export async function sparseCandidates(
  folder: string,
  options: CandidateOptions = {},
): Promise<{ candidates: SparseCandidate[]; warning: string }> {
  const minBytes = options.minBytes ?? candidateMinBytes;
  const result = await loadNative().scanFolder({
    path: folder,
    minBytes: Number.MAX_SAFE_INTEGER, // the walk is all the engine does
    includeHidden: true,
    skipPackages: false,
    skipCloudFolders: false,
    largePaths: Math.max(1, minBytes),
  });
  const candidates: SparseCandidate[] = [];
  for (const file of result.largePaths ?? []) {
    options.signal?.throwIfAborted();
    const report = await punchZeros(file, false).catch(() => null); // gone or unreadable: left out
    if (!report || report.zeroBytes < candidateMinZeroBytes) continue;
    candidates.push({
      path: report.path,
      allocatedBytes: report.allocatedBefore,
      zeroBytes: report.zeroBytes,
    });
  }
  candidates.sort((a, b) => b.zeroBytes - a.zeroBytes || a.path.localeCompare(b.path));
  return { candidates, warning: punchWarning };
}
