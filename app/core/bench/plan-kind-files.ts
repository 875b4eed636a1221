/**
 * The files kind's engine part: write every file of the plan (shuffled by the run's seed if the
 * plan asks), then read them all back uncached. Its pure part is app/common/plan-kind-files.ts.
 */
import path from 'node:path';
import type { FilesPlan } from '../../contract/plan.js';
import { formatBytes } from '../../common/format.js';
import { filesPlanSizes } from '../../common/plan-kind-files.js';
import { LiveCliffWatch, reportLiveCliff } from './live-cliff.js';
import { seededRandom, shuffled } from './seeded-random.js';
import { singleTargetEngine } from './single-target.js';
import { testFileName } from './test-folder.js';

/** The files a files plan writes, in order: its sizes, each repeated, shuffled with `seed` if asked. */
export function planFileSizes(plan: FilesPlan, seed: number): number[] {
  const sizes = filesPlanSizes(plan);
  return plan.shuffle ? shuffled(sizes, seededRandom(seed)) : sizes;
}

export const filesEngine = singleTargetEngine<FilesPlan>({
  refusal: ({ plan, writeBytes }, room) =>
    `The ${plan.name} plan writes ${formatBytes(writeBytes)}, but only ${formatBytes(room.allowanceBytes)} may be used here. ${room.whatWouldWork(writeBytes)}`,

  async run({ context, folder, sized: { plan }, seed }) {
    const sizes = planFileSizes(plan, seed);
    const written: string[] = [];
    const planned = sizes.reduce((sum, bytes) => sum + bytes, 0);
    context.emit({ type: 'phase-started', phase: 'write' });
    const writeStart = context.startPhase('write', planned);
    const cliffWatch = new LiveCliffWatch();
    for (const [index, bytes] of sizes.entries()) {
      await context.ensureRoom(bytes, false);
      const file = path.join(folder, testFileName(index));
      const transfer = await context.timedWrite(file, bytes, 'write');
      written.push(file);
      context.held.push({ path: file, bytes });
      reportLiveCliff(
        context,
        cliffWatch,
        await context.record('write', transfer, writeStart, sizes.length),
      );
    }
    if (!plan.readBack) return {};
    context.emit({ type: 'phase-started', phase: 'read' });
    await context.evictBeforeReads(written);
    const readStart = context.startPhase('read', planned);
    for (const file of written) {
      const transfer = await context.timedRead(file);
      await context.record('read', transfer, readStart, written.length);
    }
    return {};
  },
});
