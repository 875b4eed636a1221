/** What every kind of run shares: checking the folder, describing the environment, ending a run. */
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ResultDocument } from '../../contract/bench.js';
import { PlumbError, toErrorPayload } from '../../contract/errors.js';
import { cancelledError, isCancelled, type VolumeFacts } from './bench-io.js';
import type { ResultsStore } from './results-store.js';
import type { RunContext } from './run-context.js';

/** The folder, resolved, with a clear error when it is not a usable folder. */
export async function checkFolder(folder: string): Promise<string> {
  const target = path.resolve(folder);
  let stats;
  try {
    stats = await stat(target);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'ENOENT')
      throw new PlumbError('ENOENT', `No such folder: ${target}. Check the path and try again.`, {
        cause,
      });
    throw new PlumbError(code, `Cannot open ${target}: ${(cause as Error).message}`, { cause });
  }
  if (!stats.isDirectory())
    throw new PlumbError('ENOTDIR', `${target} is a file, not a folder. Give a folder.`);
  return target;
}

function osDescription(): string {
  return `${os.type()} ${os.release()} ${os.arch()}`;
}

export function environment(
  volume: VolumeFacts,
  cacheMode: 'direct' | 'buffered',
  target: string,
  cacheEviction: string | null = null,
): ResultDocument['environment'] {
  return {
    os: osDescription(),
    volume: {
      path: target,
      fsType: volume.fsType,
      totalBytes: volume.totalBytes,
      freeBytes: volume.freeBytes,
      bus: volume.bus,
    },
    cacheMode,
    cacheDefeat:
      cacheMode === 'direct'
        ? 'direct I/O: every transfer bypassed the OS cache (O_DIRECT, F_NOCACHE or FILE_FLAG_NO_BUFFERING)'
        : 'buffered I/O: each file was flushed and dropped from the OS cache with hints, and files were read back oldest first; some reads may still have come from memory',
    ...(cacheEviction ? { cacheEviction } : {}),
  };
}

/** Emits the run's end, whatever it was, and rethrows failures as the caller should see them. */
export async function finish(
  context: RunContext,
  options: { signal: AbortSignal; store?: ResultsStore },
  work: () => Promise<ResultDocument>,
): Promise<ResultDocument> {
  try {
    const document = await work();
    for (const finding of document.findings) context.emit({ type: 'finding', finding });
    if (options.store) await options.store.save(document);
    context.emit({ type: 'finished', resultId: document.id, findings: document.findings });
    return document;
  } catch (error) {
    if (options.signal.aborted || isCancelled(error)) {
      context.emit({ type: 'cancelled' });
      throw cancelledError();
    }
    context.emit({ type: 'failed', error: toErrorPayload(error) });
    throw error;
  }
}
