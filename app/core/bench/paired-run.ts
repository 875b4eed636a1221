/** Starts a paired run: two folders, each with its own guard, test folder and context. */
import { stat } from 'node:fs/promises';
import type { PairedPlan, ResultDocument } from '../../contract/bench.js';
import { PlumbError, spaceGuardCode } from '../../contract/errors.js';
import { interfaceCeilingForBus } from '../analysis/interface-ceiling.js';
import { formatBytes } from '../../common/format.js';
import type { BenchIO } from './bench-io.js';
import { buildResult } from './build-result.js';
import { pairedPlannedBytes, runPairedPlan, type PairedSide } from './paired.js';
import { newResultId } from './results-store.js';
import { RunContext } from './run-context.js';
import { checkFolder } from '../folder.js';
import { environment, finish } from './run-shared.js';
import type { PreparedRun, RunOptions } from './run-options.js';
import { defaultReserve, reserveBytes, whatWouldWork, writeAllowance } from './space-guard.js';
import { createTestFolder, removeStaleTestFolders, removeTestFolder } from './test-folder.js';

/**
 * Checks a paired plan on `options.target` (a) and `options.pairedWith` (b): both folders, and
 * the free-space guard on each volume; refusals are thrown here, before any event.
 */
export async function preparePairedBenchmark(
  options: RunOptions,
  plan: PairedPlan,
  io: BenchIO,
): Promise<PreparedRun> {
  if (options.pairedWith === undefined)
    throw new PlumbError(
      'EUSAGE',
      'The paired plan needs a second folder: plumb bench DIR --plan paired --with DIR2',
    );
  const runId = options.runId ?? newResultId();
  const emit = options.emit ?? (() => undefined);
  const targets = {
    a: await checkFolder(options.target),
    b: await checkFolder(options.pairedWith),
  };
  if (targets.a === targets.b)
    throw new PlumbError('EUSAGE', `Give two different folders, not ${targets.a} twice.`);
  const sameVolume = (await stat(targets.a)).dev === (await stat(targets.b)).dev;
  const volumes = { a: await io.volume(targets.a), b: await io.volume(targets.b) };

  // Each target holds its files written alone (read back later) and those written together.
  const perTarget = 2 * plan.filesPerStage * plan.fileBytes;
  const reserves = { a: 0, b: 0 };
  for (const target of ['a', 'b'] as const) {
    reserves[target] = reserveBytes(volumes[target].totalBytes, options.reserve ?? defaultReserve);
    const { availableBytes } = await io.space(targets[target]);
    const allowance = writeAllowance(availableBytes, reserves[target]);
    const needed = sameVolume ? 2 * perTarget : perTarget;
    if (needed > allowance)
      throw new PlumbError(
        spaceGuardCode,
        `The ${plan.name} plan needs ${formatBytes(needed)} on the volume of ${targets[target]}, but only ${formatBytes(allowance)} may be used there. ${whatWouldWork({ neededBytes: needed, availableBytes, reserveBytes: reserves[target], volumeBytes: volumes[target].totalBytes, scale: options.scale })}`,
      );
  }

  const run = (): Promise<ResultDocument> => {
    const startedAt = new Date().toISOString();
    const tally = { bytes: 0 };
    const contextFor = (target: 'a' | 'b') =>
      new RunContext({
        io,
        runId,
        target: targets[target],
        signal: options.signal,
        buffered: options.buffered ?? false,
        reserveBytes: reserves[target],
        plannedBytes: pairedPlannedBytes(plan),
        emit,
        tally,
      });
    const contexts = { a: contextFor('a'), b: contextFor('b') };
    contexts.a.emit({
      type: 'plan-started',
      plan: plan.name,
      target: `${targets.a} + ${targets.b}`,
      files: null,
      bytes: contexts.a.options.plannedBytes,
    });

    return finish(contexts.a, options, async () => {
      for (const target of ['a', 'b'] as const) {
        for (const removed of await removeStaleTestFolders(targets[target]))
          contexts.a.notice(
            `Removed ${removed}, left behind by an earlier run that did not finish.`,
          );
      }
      contexts.a.checkCancelled();
      const folders: string[] = [];
      const kept = { kept: options.keepFiles };
      let outcome;
      try {
        const sides: Record<'a' | 'b', PairedSide> = {
          a: { context: contexts.a, folder: await createTestFolder(targets.a, kept) },
          b: { context: contexts.b, folder: '' },
        };
        folders.push(sides.a.folder);
        sides.b.folder = await createTestFolder(targets.b, kept);
        folders.push(sides.b.folder);
        outcome = await runPairedPlan(sides, plan, sameVolume);
      } finally {
        for (const folder of folders) {
          if (options.keepFiles)
            contexts.a.notice(
              `Test files kept in ${folder} (--keep-files); later runs leave it alone.`,
            );
          else await removeTestFolder(folder);
        }
      }
      const buffered =
        contexts.a.cacheMode() === 'buffered' || contexts.b.cacheMode() === 'buffered';
      const b = volumes.b;
      return buildResult({
        id: runId,
        startedAt,
        finishedAt: new Date().toISOString(),
        appVersion: options.appVersion,
        environment: {
          ...environment(volumes.a, buffered ? 'buffered' : 'direct', targets.a),
          pairedVolume: {
            path: targets.b,
            fsType: b.fsType,
            totalBytes: b.totalBytes,
            freeBytes: b.freeBytes,
            bus: b.bus,
          },
        },
        plan: {
          ...plan,
          ...(options.scale && options.scale !== 1 ? { scale: options.scale } : {}),
        },
        files: outcome.files,
        paired: outcome.paired,
        notices: [...contexts.a.notices, ...contexts.b.notices],
        ceiling: options.ceiling ?? interfaceCeilingForBus(volumes.a.bus),
        targetCeilings: {
          a: options.ceiling ?? interfaceCeilingForBus(volumes.a.bus),
          b: options.ceiling ?? interfaceCeilingForBus(volumes.b.bus),
        },
      });
    });
  };
  return { runId, target: targets.a, run };
}
