/**
 * Runs a plan against a folder: the checks every kind shares, then the kind's own engine
 * (plan-kinds.ts), which guards free space, writes into its own marked test folder, reports
 * events, removes its files whatever happens, and stores the results document. Reading a folder
 * is no plan: it is here too.
 */
import { stat } from '../os-fs.js';
import type { ResultDocument } from '../../contract/bench-result.js';
import { PlumbError } from '../../contract/errors.js';
import { listInWords } from '../../common/format.js';
import { builtinNamesWhere, planKindOf } from '../../common/plan-kinds.js';
import type { BenchIO } from './bench-io.js';
import { planEngineOf } from './plan-kinds.js';
import { newResultId } from './results-store.js';
import { checkFolder } from '../folder.js';
import { finish, oneFolderResult, startedContext } from './run-shared.js';
import { readableFilesUnder, unreadableNotice } from './folder-files.js';
import type { PreparedRun, RunOptions } from './run-options.js';

/** Runs a benchmark plan on `options.target` and returns (and stores) its results document. */
export async function runBenchmark(options: RunOptions, io: BenchIO): Promise<ResultDocument> {
  return (await prepareBenchmark(options, io)).run();
}

/** Checks a plan can run on `options.target` (throwing the guard's refusal if not), ready to run. */
export async function prepareBenchmark(options: RunOptions, io: BenchIO): Promise<PreparedRun> {
  const { plan } = options;
  const takes = planKindOf(plan).options;
  if (options.pairedWith !== undefined && !takes.secondFolder)
    throw new PlumbError(
      'EUSAGE',
      `A second folder applies to the ${listInWords(builtinNamesWhere((kind) => kind.options.secondFolder))} plan only.`,
    );
  if (options.verify && takes.verify === 'never')
    throw new PlumbError(
      'EUSAGE',
      `--verify applies to plans that write files (${builtinNamesWhere((kind) => kind.options.verify !== 'never').join(', ')}), not ${plan.name}.`,
    );
  return planEngineOf(plan).prepare(
    { ...options, runId: options.runId ?? newResultId() },
    plan,
    io,
  );
}

/** `plumb read DIR`: times reading every file under a folder, uncached, e.g. one written long ago. */
export async function runReadFolder(
  options: ReadFolderOptions,
  io: BenchIO,
): Promise<ResultDocument> {
  return (await prepareReadFolder(options, io)).run();
}

export type ReadFolderOptions = Omit<
  RunOptions,
  'plan' | 'totalBytes' | 'keepFiles' | 'reserve' | 'seed' | 'scale' | 'pairedWith' | 'direction'
>;

/** Lists the files to read (refusing a folder with none), ready to time them. */
export async function prepareReadFolder(
  options: ReadFolderOptions,
  io: BenchIO,
): Promise<PreparedRun> {
  const runId = options.runId ?? newResultId();
  const target = await checkFolder(options.target);
  const volume = await io.volume(target);
  const files: { path: string; bytes: number }[] = [];
  const found = await readableFilesUnder(target);
  for (const file of found.files) {
    const { size } = await stat(file);
    if (size > 0) files.push({ path: file, bytes: size });
  }
  const leftOut = unreadableNotice(found);
  if (files.length === 0)
    throw new PlumbError('ENOENT', `There are no files with data under ${target} to read.`);
  const planned = files.reduce((sum, f) => sum + f.bytes, 0);
  const run = (): Promise<ResultDocument> => {
    const startedAt = new Date().toISOString();
    const context = startedContext(
      {
        io,
        runId,
        target,
        signal: options.signal,
        buffered: options.buffered ?? false,
        reserveBytes: 0,
        plannedBytes: planned,
        emit: options.emit ?? (() => undefined),
      },
      'read-folder',
      files.length,
    );
    if (leftOut) context.notice(leftOut);
    return finish(context, options, async () => {
      context.emit({ type: 'phase-started', phase: 'read' });
      await context.evictBeforeReads(files.map((file) => file.path));
      const start = context.startPhase('read', planned);
      for (const file of files) {
        const transfer = await context.timedRead(file.path);
        await context.record('read', transfer, start, files.length);
      }
      return oneFolderResult(
        context,
        { ...options, runId, startedAt, planName: 'read-folder', volume },
        { plan: { name: 'read-folder', folder: target, fileCount: files.length } },
      );
    });
  };
  return { runId, target, planned: null, run };
}
