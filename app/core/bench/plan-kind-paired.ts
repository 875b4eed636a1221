/**
 * The paired kind's engine part: two folders, each with its own guard, test folder and context
 * (the stages themselves: paired.ts). Its pure part is app/common/plan-kind-paired.ts.
 */
import { stat } from 'node:fs/promises';
import type { ResultDocument } from '../../contract/bench-result.js';
import type { PairedPlan } from '../../contract/plan.js';
import { PlumbError, spaceGuardCode } from '../../contract/errors.js';
import { interfaceCeilingForBus } from '../analysis/interface-ceiling.js';
import { formatBytes } from '../../common/format.js';
import { sizeRun } from '../../common/plan-kinds.js';
import type { BenchIO } from './bench-io.js';
import { buildResult } from './build-result.js';
import { runPairedPlan, type PairedSide } from './paired.js';
import type { PlanEngine } from './plan-engine.js';
import { newResultId } from './results-store.js';
import { RunContext } from './run-context.js';
import { checkFolder } from '../folder.js';
import { environment, finish } from './run-shared.js';
import type { PreparedRun, RunOptions } from './run-options.js';
import { defaultReserve, reserveBytes, writeAllowance } from '../../common/reserve.js';
import { whatWouldWork } from './space-guard.js';
import { createTestFolder, removeStaleTestFolders, removeTestFolder } from './test-folder.js';

export const pairedEngine: PlanEngine<PairedPlan> = {
  prepare: (options, plan, io) =>
    preparePaired(
      options,
      options.direction ? { ...plan, direction: options.direction } : plan,
      io,
    ),
};

/**
 * Checks a paired plan on `options.target` (a) and `options.pairedWith` (b): both folders, and
 * the free-space guard on each volume; refusals are thrown here, before any event.
 */
async function preparePaired(
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

  const reserves = { a: 0, b: 0 };
  const spaces = { a: await io.space(targets.a), b: await io.space(targets.b) };
  for (const target of ['a', 'b'] as const)
    reserves[target] = reserveBytes(volumes[target].totalBytes, options.reserve ?? defaultReserve);
  // Sized on the first folder's volume: what each target holds, and what the progress counts.
  const sized = sizeRun(plan, {
    allowanceBytes: writeAllowance(spaces.a.availableBytes, reserves.a),
    volumeBytes: volumes.a.totalBytes,
    availableBytes: spaces.a.availableBytes,
    scale: options.scale ?? 1,
    verify: false,
  });
  for (const target of ['a', 'b'] as const) {
    const { availableBytes } = spaces[target];
    const allowance = writeAllowance(availableBytes, reserves[target]);
    const needed = sameVolume ? 2 * sized.spaceBytes : sized.spaceBytes;
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
        plannedBytes: sized.progress.bytes,
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
  return { runId, target: targets.a, planned: sized, run };
}
