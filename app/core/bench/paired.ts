/**
 * The paired plan: two targets at once, as with two SSDs on one dock (seed 000). Each target runs
 * alone first, then both together in each pairing of the plan's direction; the rates alone and
 * together tell whether the two share a bottleneck.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { FileRecord, PairedSection, PairingResult } from '../../contract/bench-result.js';
import type { PairedPlan } from '../../contract/plan.js';
import { pairingsFor, type Pairing } from '../../common/plan-kind-paired.js';
import { aggregateRate } from '../analysis/aggregate-rate.js';
import { interference } from '../analysis/interference.js';
import type { TimedTransfer } from './bench-io.js';
import type { RunContext } from './run-context.js';
import { testFileName } from './test-folder.js';

/** One target of a paired run: its context (guard, clock, events) and its test folder. */
export interface PairedSide {
  context: RunContext;
  folder: string;
}

type Direction = 'write' | 'read';
type Target = 'a' | 'b';

function directions(pairing: Pairing): [Direction, Direction] {
  const [a, b] = pairing.split('+') as [Direction, Direction];
  return [a, b];
}

const togetherName = (index: number) => `together-${String(index).padStart(5, '0')}.dat`;

class PairedRun {
  readonly rows: FileRecord[] = [];
  constructor(
    private readonly plan: PairedPlan,
    private readonly sides: Record<Target, PairedSide>,
  ) {}

  /** One transfer by one target: a write of a new file, or a read of one written alone. */
  private async transfer(target: Target, direction: Direction, file: string) {
    const { context } = this.sides[target];
    if (direction === 'read') return context.timedRead(file);
    await context.ensureRoom(this.plan.fileBytes, false);
    return context.timedWrite(file, this.plan.fileBytes, 'write');
  }

  private async record(
    target: Target,
    direction: Direction,
    transfer: TimedTransfer,
    start: number,
    tags: Pick<FileRecord, 'stage' | 'pairing'>,
  ) {
    const row = await this.sides[target].context.record(
      direction,
      transfer,
      start,
      this.plan.filesPerStage,
      { target, ...tags },
    );
    this.rows.push(row);
  }

  /** One target alone: writes its source files, or reads them back (uncached). */
  async alone(target: Target, direction: Direction): Promise<void> {
    const { context, folder } = this.sides[target];
    const start = context.io.now();
    for (let index = 0; index < this.plan.filesPerStage; index += 1) {
      const transfer = await this.transfer(
        target,
        direction,
        path.join(folder, testFileName(index)),
      );
      await this.record(target, direction, transfer, start, { stage: 'alone' });
    }
  }

  /**
   * Both targets at once. Each moves its quota of files; one that finishes first keeps going
   * (rewriting or re-reading the same files, not recorded) until the other is done too, so every
   * recorded file ran against the other target's load.
   */
  async together(pairing: Pairing): Promise<void> {
    const [directionA, directionB] = directions(pairing);
    const quota = this.plan.filesPerStage;
    const finished: Record<Target, boolean> = { a: false, b: false };
    let failed = false;
    const lane = async (target: Target, direction: Direction) => {
      const other: Target = target === 'a' ? 'b' : 'a';
      const { context, folder } = this.sides[target];
      const start = context.io.now();
      for (let index = 0; !failed && (index < quota || !finished[other]); index += 1) {
        const name = direction === 'read' ? testFileName : togetherName;
        const transfer = await this.transfer(
          target,
          direction,
          path.join(folder, name(index % quota)),
        );
        if (index < quota)
          await this.record(target, direction, transfer, start, { stage: 'together', pairing });
        if (index === quota - 1) finished[target] = true;
      }
    };
    const outcomes = await Promise.allSettled(
      (['a', 'b'] as const).map((target, i) =>
        lane(target, i === 0 ? directionA : directionB).catch((error: unknown) => {
          failed = true;
          throw error;
        }),
      ),
    );
    for (const side of Object.values(this.sides)) {
      for (let index = 0; index < quota; index += 1)
        await rm(path.join(side.folder, togetherName(index)), { force: true });
    }
    const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (rejected) throw rejected.reason;
  }

  rate(target: Target, direction: Direction, stage: 'alone' | 'together', pairing?: Pairing) {
    return aggregateRate(
      this.rows.filter(
        (row) =>
          row.target === target &&
          row.phase === direction &&
          row.stage === stage &&
          (pairing === undefined || row.pairing === pairing),
      ),
    );
  }
}

/** Runs a paired plan on both sides; returns every file row and the paired section of the result. */
export async function runPairedPlan(
  sides: Record<Target, PairedSide>,
  plan: PairedPlan,
  sameVolume: boolean,
): Promise<{ files: FileRecord[]; paired: PairedSection }> {
  const run = new PairedRun(plan, sides);
  const pairings = pairingsFor(plan.direction);
  const { context } = sides.a;
  context.emit({ type: 'phase-started', phase: 'write' });
  await run.alone('a', 'write');
  await run.alone('b', 'write');
  const readsNeeded = {
    a: pairings.includes('read+read'),
    b: pairings.some((p) => p.endsWith('read')),
  };
  if (readsNeeded.a || readsNeeded.b) context.emit({ type: 'phase-started', phase: 'read' });
  if (readsNeeded.a) await run.alone('a', 'read');
  if (readsNeeded.b) await run.alone('b', 'read');

  const results: PairingResult[] = [];
  for (const pairing of pairings) {
    const [directionA, directionB] = directions(pairing);
    context.emit({
      type: 'phase-started',
      phase: directionA === directionB ? directionA : 'write',
    });
    await run.together(pairing);
    const verdict = interference({
      pairing,
      aloneA: run.rate('a', directionA, 'alone') ?? 0,
      aloneB: run.rate('b', directionB, 'alone') ?? 0,
      togetherA: run.rate('a', directionA, 'together', pairing) ?? 0,
      togetherB: run.rate('b', directionB, 'together', pairing) ?? 0,
      sameVolume,
    });
    const { aloneA, aloneB, togetherA, togetherB, aggregate, retained, interferes, message } =
      verdict;
    results.push({
      pairing,
      aloneA,
      aloneB,
      togetherA,
      togetherB,
      aggregate,
      retained,
      interferes,
      message,
    });
  }
  const rates = (target: Target) => ({
    path: sides[target].context.options.target,
    writeAlone: run.rate(target, 'write', 'alone'),
    readAlone: run.rate(target, 'read', 'alone'),
  });
  return {
    files: run.rows,
    paired: { targets: { a: rates('a'), b: rates('b') }, sameVolume, pairings: results },
  };
}
