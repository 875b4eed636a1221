/**
 * The capacity kind's engine part (f3, h2testw): fill what may be used with files whose every
 * block is stamped, then read them all back and check every block. The writing is a sustained
 * run's (sampled, the cliff watched), but nothing rotates out: each file written is a file
 * checked. Its pure part is app/common/plan-kind-capacity.ts.
 */
import path from 'node:path';
import type { VerifySection } from '../../contract/bench-result.js';
import type { CapacityPlan } from '../../contract/plan.js';
import { blocksWithin } from '../../common/run-sizes.js';
import { formatBytes } from '../../common/format.js';
import { LiveCliffWatch, reportLiveCliff } from './live-cliff.js';
import type { RunContext } from './run-context.js';
import { singleTargetEngine } from './single-target.js';
import { testFileName } from './test-folder.js';
import { verifyWritten, type StampLedger } from './verify.js';

export const capacityEngine = singleTargetEngine<CapacityPlan>({
  refusal: ({ plan }, room) =>
    `The capacity check fills the space that may be used, but only ${formatBytes(room.allowanceBytes)} may be used here. ${room.whatWouldWork(plan.fileBytes, false)}`,
  // The kind always checks, so the runner always gives it a ledger.
  run: async ({ context, folder, sized, allowanceBytes, ledger }) => ({
    verify: await runCapacityPlan(
      context,
      folder,
      sized.plan,
      sized.writeBytes,
      allowanceBytes,
      ledger!,
    ),
  }),
});

/** A file under this is not worth writing: the fill is done (what is left is file system slack). */
const smallestFile = 2 ** 20;

/**
 * What the file system spends beside a file's data (extent blocks, the directory entry), kept
 * free on top of the reserve so the last file never crosses it.
 */
const metadataSlack = (bytes: number) => 2 ** 20 + Math.ceil(bytes / 1000);

/**
 * Writes the fill, then checks it. Each file is as large as the plan's, or what is left of the
 * fill, or what the guard still allows (the free space can fall while it runs): the run never
 * crosses the reserve and never stops with nothing saved for it.
 */
async function runCapacityPlan(
  context: RunContext,
  folder: string,
  plan: CapacityPlan,
  fillBytes: number,
  allowanceBytes: number,
  ledger: StampLedger,
): Promise<VerifySection> {
  context.emit({ type: 'phase-started', phase: 'write' });
  const start = context.startPhase('write', fillBytes);
  const cliffWatch = new LiveCliffWatch();
  const count = Math.ceil(fillBytes / plan.fileBytes);
  let written = 0;
  for (let index = 0; written < fillBytes; index += 1) {
    const wanted = Math.min(plan.fileBytes, fillBytes - written);
    const room = await context.roomLeft();
    const bytes = Math.min(wanted, blocksWithin(room - metadataSlack(wanted)));
    if (bytes < Math.min(wanted, smallestFile)) {
      // What the file system took beside the data is no shortfall; more than that is.
      if (fillBytes - written <= count * metadataSlack(plan.fileBytes)) break;
      context.notice(
        `Filled ${formatBytes(written)} of the ${formatBytes(fillBytes)} planned: the free space fell while the check ran (another program wrote to the disk?), and Plumb keeps ${formatBytes(context.options.reserveBytes)} free. What was written is checked.`,
      );
      break;
    }
    const file = path.join(folder, testFileName(index));
    const transfer = await context.timedWrite(file, bytes, 'write');
    context.held.push({ path: file, bytes });
    reportLiveCliff(context, cliffWatch, await context.record('write', transfer, start, count));
    written += transfer.bytes;
  }
  return verifyWritten(context, ledger, { readPhase: true, capacity: { allowanceBytes } });
}
