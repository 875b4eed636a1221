/** What every kind of run shares: describing the environment, ending a run. */
import os from 'node:os';
import type { ResultDocument } from '../../contract/bench-result.js';
import { toErrorPayload } from '../../contract/errors.js';
import { interfaceCeilingForBus, type InterfaceCeiling } from '../analysis/interface-ceiling.js';
import { cancelledError, isCancelled, type VolumeFacts } from './bench-io.js';
import { buildResult, type ResultParts } from './build-result.js';
import { earlierDrops } from './earlier-drops.js';
import type { ResultsStore } from './results-store.js';
import { RunContext, type RunContextOptions } from './run-context.js';

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

/** A run's context with its first event, `plan-started`, said: what it plans to move, and where. */
export function startedContext(
  options: RunContextOptions,
  plan: string,
  files: number | null,
): RunContext {
  const context = new RunContext(options);
  context.emit({
    type: 'plan-started',
    plan,
    target: options.target,
    files,
    bytes: options.plannedBytes,
  });
  return context;
}

/** Who ran what on one folder, for its results document. */
export interface OneFolderRun {
  runId: string;
  startedAt: string;
  appVersion: string;
  /** The plan's name ("read-folder" for no plan): earlier runs of it are looked up by it. */
  planName: string;
  volume: VolumeFacts;
  ceiling?: InterfaceCeiling;
  store?: ResultsStore;
}

/** The results document of a run on one folder: what every such run records, and its own parts. */
export async function oneFolderResult(
  context: RunContext,
  run: OneFolderRun,
  own: Pick<ResultParts, 'plan' | 'scale' | 'runs' | 'recovery' | 'task' | 'verify'>,
): Promise<ResultDocument> {
  const { target } = context.options;
  return buildResult({
    ...own,
    id: run.runId,
    startedAt: run.startedAt,
    finishedAt: new Date().toISOString(),
    appVersion: run.appVersion,
    environment: environment(run.volume, context.cacheMode(), target, context.cacheEviction),
    files: context.files,
    samplesByPhase: context.samples.byPhase(),
    notices: context.notices,
    ceiling: run.ceiling ?? interfaceCeilingForBus(run.volume.bus),
    earlierDrops: run.store
      ? await earlierDrops(run.store, run.planName, target, run.runId)
      : undefined,
  });
}
