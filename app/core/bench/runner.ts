/**
 * Runs a plan against a folder: guards free space, writes into its own marked test folder,
 * reports events, removes its files whatever happens, and stores the results document.
 */
import { stat } from '../os-fs.js';
import type { Plan, ResultDocument } from '../../contract/bench.js';
import { PlumbError, spaceGuardCode } from '../../contract/errors.js';
import { interfaceCeilingForBus } from '../analysis/interface-ceiling.js';
import { formatBytes } from '../../common/format.js';
import type { BenchIO } from './bench-io.js';
import { buildResult } from './build-result.js';
import { earlierDrops } from './earlier-drops.js';
import { planFileSizes } from './file-sizes.js';
import { preparePairedBenchmark } from './paired-run.js';
import {
  runFilesPlan,
  runPresetsPlan,
  runSustainedPlan,
  sizeRecoveryProbes,
  sustainedTotal,
} from './phases.js';
import { newResultId } from './results-store.js';
import { RunContext } from './run-context.js';
import { checkFolder } from '../folder.js';
import { environment, finish } from './run-shared.js';
import { readableFilesUnder, unreadableNotice } from './folder-files.js';
import { newSeed } from './seeded-random.js';
import {
  cacheGuessBytes,
  defaultReserve,
  reserveBytes,
  whatWouldWork,
  writeAllowance,
} from './space-guard.js';
import { capacityFillBytes, capacityMinimumBytes } from '../../common/run-sizes.js';
import { runCapacityPlan } from './capacity.js';
import { runTaskPlan, taskPlannedBytes, taskSpaceBytes } from './task.js';
import { createTestFolder, removeStaleTestFolders, removeTestFolder } from './test-folder.js';
import type { PreparedRun, RunOptions } from './run-options.js';
import { StampLedger, verifyWritten } from './verify.js';

/**
 * Bytes a plan will move (for progress), or null when it runs until a limit: its writes, reads
 * and, with --verify, the check (the files still held at the end).
 */
function plannedBytes(
  plan: Plan,
  seed: number,
  writeBytes: number | null,
  verify: boolean,
  allowance: number,
): number | null {
  if (plan.kind === 'files') {
    const written = planFileSizes(plan, seed).reduce((sum, b) => sum + b, 0);
    return written * (1 + (plan.readBack ? 1 : 0) + (verify ? 1 : 0));
  }
  if (plan.kind === 'sustained' && writeBytes !== null)
    return writeBytes + (verify ? Math.min(writeBytes, allowance) : 0);
  if (plan.kind === 'capacity' && writeBytes !== null) return 2 * writeBytes;
  if (plan.kind === 'task') return taskPlannedBytes(plan);
  return null;
}

/** Runs a benchmark plan on `options.target` and returns (and stores) its results document. */
export async function runBenchmark(options: RunOptions, io: BenchIO): Promise<ResultDocument> {
  return (await prepareBenchmark(options, io)).run();
}

/** Checks a plan can run on `options.target` (throwing the guard's refusal if not), ready to run. */
export async function prepareBenchmark(options: RunOptions, io: BenchIO): Promise<PreparedRun> {
  const runId = options.runId ?? newResultId();
  const emit = options.emit ?? (() => undefined);
  const target = await checkFolder(options.target);
  const { plan } = options;
  if (plan.kind === 'paired')
    return preparePairedBenchmark(
      { ...options, runId },
      options.direction ? { ...plan, direction: options.direction } : plan,
      io,
    );
  if (options.pairedWith !== undefined)
    throw new PlumbError('EUSAGE', `A second folder applies to the paired plan only.`);
  if (options.verify && !['files', 'sustained', 'capacity'].includes(plan.kind))
    throw new PlumbError(
      'EUSAGE',
      `--verify applies to plans that write files (standard, series, sustained, capacity), not ${plan.name}.`,
    );
  const seed = options.seed ?? ('seed' in plan && plan.seed !== undefined ? plan.seed : newSeed());
  const volume = await io.volume(target);
  const reserve = reserveBytes(volume.totalBytes, options.reserve ?? defaultReserve);
  const space = await io.space(target);
  const allowance = writeAllowance(space.availableBytes, reserve);
  const hint = (neededBytes: number, scaled = true) =>
    whatWouldWork({
      neededBytes,
      availableBytes: space.availableBytes,
      reserveBytes: reserve,
      volumeBytes: volume.totalBytes,
      scale: scaled ? (options.scale ?? 1) : undefined,
    });

  // Refuse up front what cannot fit, before a single byte is written.
  let sustained: number | null = null;
  let fill: number | null = null;
  let runPlan: Plan = plan;
  const startNotices: string[] = [];
  if (plan.kind === 'files') {
    const needed = planFileSizes(plan, seed).reduce((sum, b) => sum + b, 0);
    if (needed > allowance) {
      throw new PlumbError(
        spaceGuardCode,
        `The ${plan.name} plan writes ${formatBytes(needed)}, but only ${formatBytes(allowance)} may be used here. ${hint(needed)}`,
      );
    }
  } else if (plan.kind === 'sustained') {
    sustained = sustainedTotal(
      plan,
      options.totalBytes,
      allowance,
      cacheGuessBytes(volume.totalBytes, space.availableBytes),
      options.scale,
    );
    if (allowance < plan.maxFileBytes && allowance < sustained) {
      throw new PlumbError(
        spaceGuardCode,
        `A sustained run needs room for one ${formatBytes(plan.maxFileBytes)} file at a time, but only ${formatBytes(allowance)} may be used here. ${hint(plan.maxFileBytes, false)}`,
      );
    }
    // Sized now, so the run says before it starts what it will do after a cliff.
    const sized = sizeRecoveryProbes(plan, allowance, sustained, options.scale ?? 1);
    runPlan = sized.plan;
    if (sized.note !== null) startNotices.push(sized.note);
  } else if (plan.kind === 'capacity') {
    fill = capacityFillBytes(allowance, options.totalBytes ?? plan.totalBytes, options.scale);
    if (fill < capacityMinimumBytes)
      throw new PlumbError(
        spaceGuardCode,
        `The capacity check fills the space that may be used, but only ${formatBytes(allowance)} may be used here. ${hint(plan.fileBytes, false)}`,
      );
  } else if (plan.kind === 'task') {
    const needed = taskSpaceBytes(plan);
    if (needed > allowance)
      throw new PlumbError(
        spaceGuardCode,
        `The ${plan.name} plan needs ${formatBytes(needed)} (its input and the compressed output), but only ${formatBytes(allowance)} may be used here. ${hint(needed)}`,
      );
  } else if (plan.fileBytes > allowance) {
    throw new PlumbError(
      spaceGuardCode,
      `The queue-depth test file of ${formatBytes(plan.fileBytes)} does not fit in the ${formatBytes(allowance)} that may be used here. ${hint(plan.fileBytes)}`,
    );
  }

  const run = (): Promise<ResultDocument> => {
    const startedAt = new Date().toISOString();
    const ledger = options.verify || plan.kind === 'capacity' ? new StampLedger() : undefined;
    const context = new RunContext({
      io,
      runId,
      target,
      signal: options.signal,
      buffered: options.buffered ?? false,
      reserveBytes: reserve,
      plannedBytes: plannedBytes(plan, seed, sustained ?? fill, ledger !== undefined, allowance),
      emit,
      ledger,
    });
    context.emit({
      type: 'plan-started',
      plan: plan.name,
      target,
      files:
        plan.kind === 'files' ? planFileSizes(plan, seed).length * (plan.readBack ? 2 : 1) : null,
      bytes: context.options.plannedBytes,
    });
    return finish(context, options, async () => {
      for (const removed of await removeStaleTestFolders(target)) {
        context.notice(`Removed ${removed}, left behind by an earlier run that did not finish.`);
      }
      for (const notice of startNotices) context.notice(notice);
      context.checkCancelled();
      const folder = await createTestFolder(target, { kept: options.keepFiles });
      let runs;
      let recovery;
      let task;
      let verify;
      try {
        if (runPlan.kind === 'files') await runFilesPlan(context, folder, runPlan, seed);
        else if (runPlan.kind === 'sustained')
          recovery = await runSustainedPlan(context, folder, runPlan, seed, sustained!);
        else if (runPlan.kind === 'capacity')
          verify = await runCapacityPlan(context, folder, runPlan, fill!, allowance, ledger!);
        else if (runPlan.kind === 'task') task = await runTaskPlan(context, folder, runPlan, seed);
        else if (runPlan.kind === 'presets') runs = await runPresetsPlan(context, folder, runPlan);
        if (ledger && !verify) verify = await verifyWritten(context, ledger);
      } finally {
        if (options.keepFiles)
          context.notice(`Test files kept in ${folder} (--keep-files); later runs leave it alone.`);
        else await removeTestFolder(folder);
      }
      const recordedPlan = {
        ...runPlan,
        ...(plan.kind === 'presets' || plan.kind === 'capacity' ? {} : { seed }),
        ...(options.scale && options.scale !== 1 ? { scale: options.scale } : {}),
        ...(sustained !== null ? { totalBytes: sustained } : {}),
        // What a capacity check filled, and what it could have (its verdict's measure).
        ...(fill !== null ? { totalBytes: fill, allowanceBytes: allowance } : {}),
      };
      return buildResult({
        id: runId,
        startedAt,
        finishedAt: new Date().toISOString(),
        appVersion: options.appVersion,
        environment: environment(volume, context.cacheMode(), target, context.cacheEviction),
        plan: recordedPlan,
        files: context.files,
        samplesByPhase: context.samples.byPhase(),
        scale: options.scale ?? 1,
        runs,
        recovery,
        task,
        verify,
        notices: context.notices,
        ceiling: options.ceiling ?? interfaceCeilingForBus(volume.bus),
        earlierDrops: options.store
          ? await earlierDrops(options.store, plan.name, target, runId)
          : undefined,
      });
    });
  };
  return { runId, target, run };
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
    const context = new RunContext({
      io,
      runId,
      target,
      signal: options.signal,
      buffered: options.buffered ?? false,
      reserveBytes: 0,
      plannedBytes: planned,
      emit: options.emit ?? (() => undefined),
    });
    context.emit({
      type: 'plan-started',
      plan: 'read-folder',
      target,
      files: files.length,
      bytes: planned,
    });
    if (leftOut) context.notice(leftOut);
    return finish(context, options, async () => {
      context.emit({ type: 'phase-started', phase: 'read' });
      await context.evictBeforeReads(files.map((file) => file.path));
      const start = context.startPhase('read', planned);
      for (const file of files) {
        const transfer = await context.timedRead(file.path);
        await context.record('read', transfer, start, files.length);
      }
      return buildResult({
        id: runId,
        startedAt,
        finishedAt: new Date().toISOString(),
        appVersion: options.appVersion,
        environment: environment(volume, context.cacheMode(), target, context.cacheEviction),
        plan: { name: 'read-folder', folder: target, fileCount: files.length },
        files: context.files,
        samplesByPhase: context.samples.byPhase(),
        notices: context.notices,
        ceiling: options.ceiling ?? interfaceCeilingForBus(volume.bus),
        earlierDrops: options.store
          ? await earlierDrops(options.store, 'read-folder', target, runId)
          : undefined,
      });
    });
  };
  return { runId, target, run };
}
