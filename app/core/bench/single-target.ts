/**
 * A run on one folder, whatever its kind: the free-space guard before a byte is written, the
 * marked test folder, the stamps when every block is checked, events, cleanup whatever happens,
 * and the results document. The kind supplies its refusal and its phases.
 */
import type { ResultDocument, TaskSection, VerifySection } from '../../contract/bench-result.js';
import type { Plan } from '../../contract/plan.js';
import { PlumbError, spaceGuardCode } from '../../contract/errors.js';
import type { SizedRun } from '../../common/plan-kind.js';
import { planKindOf, sizeRun } from '../../common/plan-kinds.js';
import { checkFolder } from '../folder.js';
import type { BenchIO } from './bench-io.js';
import type { PlanEngine } from './plan-engine.js';
import { newResultId } from './results-store.js';
import type { RunContext } from './run-context.js';
import type { PreparedRun } from './run-options.js';
import { finish, oneFolderResult, startedContext } from './run-shared.js';
import { newSeed } from './seeded-random.js';
import { defaultReserve, reserveBytes, writeAllowance } from '../../common/reserve.js';
import { whatWouldWork } from './space-guard.js';
import { createTestFolder, removeStaleTestFolders, removeTestFolder } from './test-folder.js';
import { StampLedger, verifyWritten } from './verify.js';

/** What the guard knows when a run does not fit, to say so. */
export interface GuardRoom {
  allowanceBytes: number;
  /** What would make `neededBytes` fit; `scaled` when a smaller scale shrinks them. */
  whatWouldWork(neededBytes: number, scaled?: boolean): string;
}

/** A run of the kind as the runner hands it over, in its test folder, after the guard. */
export interface KindRun<P> {
  context: RunContext;
  folder: string;
  sized: SizedRun<P>;
  seed: number;
  /** Present when every block written is stamped (--verify, or a kind that always checks). */
  ledger: StampLedger | undefined;
  allowanceBytes: number;
}

/** What a kind's phases add to the result beside its files and samples. */
export interface RunSections {
  runs?: ResultDocument['runs'];
  recovery?: ResultDocument['recovery'];
  task?: TaskSection;
  verify?: VerifySection;
}

/** A kind that runs on one folder: why it does not fit, and its phases. */
export interface SingleTargetKind<P extends Plan> {
  /** The guard's sentence when the sized run does not fit, with what would. */
  refusal(sized: SizedRun<P>, room: GuardRoom): string;
  run(run: KindRun<P>): Promise<RunSections>;
}

export function singleTargetEngine<P extends Plan>(kind: SingleTargetKind<P>): PlanEngine<P> {
  return { prepare: (options, plan, io) => prepareSingleTarget(kind, options, plan, io) };
}

async function prepareSingleTarget<P extends Plan>(
  kind: SingleTargetKind<P>,
  options: Parameters<PlanEngine<P>['prepare']>[0],
  plan: P,
  io: BenchIO,
): Promise<PreparedRun> {
  const runId = options.runId ?? newResultId();
  const emit = options.emit ?? (() => undefined);
  const target = await checkFolder(options.target);
  const pure = planKindOf(plan);
  const seed = options.seed ?? ('seed' in plan && plan.seed !== undefined ? plan.seed : newSeed());
  const volume = await io.volume(target);
  const reserve = reserveBytes(volume.totalBytes, options.reserve ?? defaultReserve);
  const space = await io.space(target);
  const allowance = writeAllowance(space.availableBytes, reserve);
  const verify = options.verify === true || pure.options.verify === 'always';
  const sized = sizeRun(plan, {
    allowanceBytes: allowance,
    volumeBytes: volume.totalBytes,
    availableBytes: space.availableBytes,
    scale: options.scale ?? 1,
    totalBytes: options.totalBytes,
    verify,
  });
  // Refuse up front what cannot fit, before a single byte is written.
  if (!sized.fits) {
    const room: GuardRoom = {
      allowanceBytes: allowance,
      whatWouldWork: (neededBytes, scaled = true) =>
        whatWouldWork({
          neededBytes,
          availableBytes: space.availableBytes,
          reserveBytes: reserve,
          volumeBytes: volume.totalBytes,
          scale: scaled ? (options.scale ?? 1) : undefined,
        }),
    };
    throw new PlumbError(spaceGuardCode, kind.refusal(sized, room));
  }

  const run = (): Promise<ResultDocument> => {
    const startedAt = new Date().toISOString();
    const ledger = verify ? new StampLedger() : undefined;
    const context = startedContext(
      {
        io,
        runId,
        target,
        signal: options.signal,
        buffered: options.buffered ?? false,
        reserveBytes: reserve,
        plannedBytes: sized.progress.bytes,
        emit,
        ledger,
      },
      plan.name,
      sized.progress.files,
    );
    return finish(context, options, async () => {
      for (const removed of await removeStaleTestFolders(target)) {
        context.notice(`Removed ${removed}, left behind by an earlier run that did not finish.`);
      }
      for (const note of sized.notes) context.notice(note);
      context.checkCancelled();
      const folder = await createTestFolder(target, { kept: options.keepFiles });
      let sections: RunSections;
      try {
        sections = await kind.run({
          context,
          folder,
          sized,
          seed,
          ledger,
          allowanceBytes: allowance,
        });
        if (ledger && !sections.verify)
          sections = { ...sections, verify: await verifyWritten(context, ledger) };
      } finally {
        if (options.keepFiles)
          context.notice(`Test files kept in ${folder} (--keep-files); later runs leave it alone.`);
        else await removeTestFolder(folder);
      }
      const recordedPlan = {
        ...sized.plan,
        ...(pure.options.seeded ? { seed } : {}),
        ...(options.scale && options.scale !== 1 ? { scale: options.scale } : {}),
        ...sized.recorded,
      };
      return oneFolderResult(
        context,
        { ...options, runId, startedAt, planName: plan.name, volume },
        { ...sections, plan: recordedPlan, scale: options.scale ?? 1 },
      );
    });
  };
  return { runId, target, planned: sized, run };
}
