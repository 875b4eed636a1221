/**
 * The sustained kind's engine part: keep writing files until the total or the time limit, then
 * idle and probe until the rate is back. Its pure part is app/common/plan-kind-sustained.ts.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { ResultDocument } from '../../contract/bench-result.js';
import type { SustainedPlan } from '../../contract/plan.js';
import { PlumbError, spaceGuardCode } from '../../contract/errors.js';
import { formatBytes } from '../../common/format.js';
import type { PhaseSamples } from '../../common/phase-samples.js';
import { randomLogUniformSize, sizeQuantum, toBlocks } from '../../common/run-sizes.js';
import { phaseDrop } from '../analysis/findings.js';
import { probeRecovery, recoveryTime, type SampledProbe } from '../analysis/recovery-time.js';
import { isCancelled, type TimedTransfer } from './bench-io.js';
import { LiveCliffWatch, reportLiveCliff } from './live-cliff.js';
import type { RunContext } from './run-context.js';
import { PhaseSampleColumns, type TransferSamples } from './sample-columns.js';
import { seededRandom } from './seeded-random.js';
import { singleTargetEngine } from './single-target.js';
import { testFileName } from './test-folder.js';

export const sustainedEngine = singleTargetEngine<SustainedPlan>({
  // Its files rotate out: it needs room for one at a time.
  refusal: ({ plan }, room) =>
    `A sustained run needs room for one ${formatBytes(plan.maxFileBytes)} file at a time, but only ${formatBytes(room.allowanceBytes)} may be used here. ${room.whatWouldWork(plan.maxFileBytes, false)}`,
  run: async ({ context, folder, sized, seed }) => ({
    recovery: await runSustainedPlan(context, folder, sized.plan, seed, sized.writeBytes),
  }),
});

/**
 * Keeps writing files (random log-uniform sizes) until the total or the time limit, rotating its
 * oldest files out when the guard needs room; then, if the plan asks and a cliff was found, idles
 * and probes until the rate is back. Returns the recovery record, if any.
 */
async function runSustainedPlan(
  context: RunContext,
  folder: string,
  plan: SustainedPlan,
  seed: number,
  totalBytes: number,
): Promise<ResultDocument['recovery']> {
  const random = seededRandom(seed);
  context.emit({ type: 'phase-started', phase: 'write' });
  const start = context.startPhase('write', totalBytes);
  const cliffWatch = new LiveCliffWatch();
  let written = 0;
  let index = 0;
  while (written < totalBytes) {
    if (plan.timeLimitSeconds !== null && context.io.now() - start >= plan.timeLimitSeconds) break;
    const remaining = totalBytes - written;
    let bytes = randomLogUniformSize(random, plan.minFileBytes, plan.maxFileBytes);
    // The last file takes the remainder rather than leaving a sliver whose rate means nothing.
    if (remaining - bytes < plan.minFileBytes)
      bytes = Math.ceil(remaining / sizeQuantum) * sizeQuantum;
    const refusal = await context.roomFor(bytes, true);
    if (refusal !== null) {
      // Nothing measured yet: the run failed. Otherwise what was written is the result.
      if (index === 0) throw new PlumbError(spaceGuardCode, refusal);
      context.reportRotation();
      context.notice(
        `The writing stopped after ${formatBytes(written)} of ${formatBytes(totalBytes)}, and the recovery is not timed: ${refusal}`,
      );
      return undefined;
    }
    const file = path.join(folder, testFileName(index));
    const transfer = await context.timedWrite(file, bytes, 'write');
    context.held.push({ path: file, bytes });
    reportLiveCliff(context, cliffWatch, await context.record('write', transfer, start, null));
    written += transfer.bytes;
    index += 1;
  }
  context.reportRotation();
  if (!plan.recovery) return undefined;

  const cliff = phaseDrop(
    'write',
    context.files.filter((f) => f.phase === 'write'),
    context.samples.get('write'),
  );
  if (!cliff) {
    context.notice('No cliff in the write rate, so there is no recovery to time.');
    return undefined;
  }
  if (cliff.repeating) {
    context.notice(
      'The write rate fell and came back again and again while writing went on: throttling, not a full cache, so there is no cache recovery to time.',
    );
    return undefined;
  }
  const { idleSeconds, maxProbes } = plan.recovery;
  // The cache the run found, every tier of it: a probe a quarter larger shows it full again, and
  // a larger one only writes more (and may fill the disk).
  const cacheBytes = cliff.steps?.at(-1)?.atBytes ?? cliff.atBytes;
  const probeBytes = Math.min(plan.recovery.probeBytes, toBlocks(1.25 * cacheBytes));
  context.emit({ type: 'phase-started', phase: 'recovery' });
  const idleStart = context.startPhase('recovery', probeBytes);
  const probes: NonNullable<ResultDocument['recovery']>['probes'] = [];
  const sampled: SampledProbe[] = [];
  // From the probes' samples where taken (a probe that starts fast on a partly emptied cache and
  // falls inside it has not recovered), else from each probe's rate over its whole file.
  const recovery = () =>
    sampled.length === probes.length
      ? probeRecovery(sampled, cliff.beforeRate, 0.9, cacheBytes).recoverySeconds
      : recoveryTime(probes, cliff.beforeRate);
  for (let probe = 0; probe < maxProbes; probe += 1) {
    context.emit({
      type: 'wait',
      seconds: idleSeconds,
      atSeconds: context.elapsed(),
      probe,
      maxProbes,
      probeBytes,
    });
    await context.io.sleep(idleSeconds, context.options.signal);
    const idle = context.io.now() - idleStart;
    const refusal = await context.roomFor(probeBytes, true);
    if (refusal !== null) {
      // The cliff and the probes so far are measured: they are kept, with why it ended.
      context.notice(
        `The recovery probes stopped after ${probes.length} of at most ${maxProbes}: ${refusal}`,
      );
      break;
    }
    const file = path.join(folder, `probe-${probe}.dat`);
    let transfer: TimedTransfer;
    try {
      transfer = await context.timedWrite(file, probeBytes, 'recovery');
    } catch (error) {
      // A probe that fails (the disk filled after the check, an I/O error) ends the recovery,
      // not the run: the writing and the probes before it are measured.
      if (isCancelled(error) || context.options.signal.aborted) throw error;
      await rm(file, { force: true });
      context.notice(
        `The recovery probes stopped after ${probes.length} of at most ${maxProbes}: probe ${probe + 1} failed (${(error as Error).message}).`,
      );
      break;
    }
    await rm(file, { force: true });
    context.recordProbe(transfer);
    const rate = transfer.seconds > 0 ? transfer.bytes / transfer.seconds : 0;
    probes.push({ idleSeconds: idle, bytes: transfer.bytes, seconds: transfer.seconds, rate });
    if (transfer.samples && transfer.samples.seconds.length > 1)
      sampled.push({ idleSeconds: idle, samples: probeSamples(transfer.samples) });
    if (recovery() !== null) break;
  }
  // Without a probe nothing was timed: no recovery rather than one that "did not come back".
  return probes.length > 0 ? { probes, recoverySeconds: recovery() } : undefined;
}

/** A probe's own samples as one phase of one file (rounded as the stored columns are). */
function probeSamples(samples: TransferSamples): PhaseSamples {
  const columns = new PhaseSampleColumns();
  columns.add('recovery', samples, 0, 0, 0);
  return columns.get('recovery')!;
}
