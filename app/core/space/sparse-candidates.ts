/**
 * Files that are not sparse yet but would shrink if their runs of zeros became holes: the large
 * files under a folder (found by the scan engine's walk), each read for whole blocks of zeros as
 * `punchZeros` reads them in a dry run. Listed with the bytes punching would free and the seeds'
 * warning; nothing is changed. Like the sparse listing, it reports its progress (the walk, then
 * the reading) and a cancel stops it in either phase.
 */
import { stat } from '../os-fs.js';
import type { SparseCandidate } from '../../contract/space.js';
import { pathsUnder, sparseSearchCancelled } from './scan.js';
import { punchWarning, punchZeros, type SparseListHooks } from './sparse.js';

/** Files smaller than this are not worth the read (a VM image or a database is far larger). */
const candidateMinBytes = 64 * 1024 * 1024;
/** Zeros below this are not worth a hole map (and an app's next write may fill them). */
const candidateMinZeroBytes = 1024 * 1024;

export interface CandidateOptions extends SparseListHooks {
  minBytes?: number;
}

const progressInterval = 100; // ms

/** Candidates under `folder`, most to free first; `warning` is the seeds' caution. */
export async function sparseCandidates(
  folder: string,
  options: CandidateOptions = {},
): Promise<{ candidates: SparseCandidate[]; warning: string }> {
  const { signal, onProgress } = options;
  const started = performance.now();
  let walked = { files: 0, bytes: 0 };
  const seconds = () => (performance.now() - started) / 1000;
  const large = await pathsUnder(
    folder,
    { large: options.minBytes ?? candidateMinBytes },
    {
      signal,
      onProgress: (p) => {
        walked = { files: p.files, bytes: p.bytes };
        onProgress?.({
          ...walked,
          phase: 'walk',
          sparseFiles: 0,
          described: 0,
          seconds: seconds(),
          secondsLeft: null,
        });
      },
    },
  );

  // Each large file is read in full: the time left comes from the bytes read so far.
  const sizes = await Promise.all(
    large.map((file) =>
      stat(file).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const readStarted = performance.now();
  let done = 0; // bytes of the files already read
  let reportedAt = 0;
  const report = (index: number, inFile: number, force = false) => {
    const now = performance.now();
    if (!force && now - reportedAt < progressInterval) return;
    reportedAt = now;
    const read = done + inFile;
    const perSecond = read / ((now - readStarted) / 1000);
    onProgress?.({
      ...walked,
      phase: 'read',
      sparseFiles: large.length,
      described: index,
      seconds: seconds(),
      secondsLeft: read > 0 && perSecond > 0 ? Math.max(0, total - read) / perSecond : null,
    });
  };
  report(0, 0, true);
  const candidates: SparseCandidate[] = [];
  for (const [index, file] of large.entries()) {
    if (signal?.aborted) throw sparseSearchCancelled();
    const found = await punchZeros(file, false, {
      signal,
      onRead: (bytes) => report(index, bytes),
    }).catch((error: unknown) => {
      if (signal?.aborted) throw sparseSearchCancelled(error);
      return null; // gone or unreadable: left out
    });
    done += sizes[index]!;
    report(index + 1, 0, index + 1 === large.length);
    if (!found || found.zeroBytes < candidateMinZeroBytes) continue;
    candidates.push({
      path: found.path,
      allocatedBytes: found.allocatedBefore,
      zeroBytes: found.zeroBytes,
    });
  }
  candidates.sort((a, b) => b.zeroBytes - a.zeroBytes || a.path.localeCompare(b.path));
  return { candidates, warning: punchWarning };
}
