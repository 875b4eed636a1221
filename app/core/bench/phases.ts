import { rm } from 'node:fs/promises';
import path from 'node:path';
import type {
  FileRecord,
  FilesPlan,
  PresetsPlan,
  QueueRunResult,
  ResultDocument,
  SustainedPlan,
} from '../../contract/bench.js';
import { PlumbError, spaceGuardCode } from '../../contract/errors.js';
import { formatBytes } from '../../common/format.js';
import { phaseDrop } from '../analysis/findings.js';
import { probeRecovery, recoveryTime, type SampledProbe } from '../analysis/recovery-time.js';
import { planDescription, runPlanDescription } from '../../common/plan-description.js';
import { recoveryProbeSize, sustainedDefaultTotal, toBlocks } from '../../common/run-sizes.js';
import { planFileSizes, randomLogUniformSize, sizeQuantum } from './file-sizes.js';
import { LiveCliffWatch, liveCliffFinding } from './live-cliff.js';
import type { PhaseSamples } from '../../common/phase-samples.js';
import { isCancelled, type TimedTransfer } from './bench-io.js';
import type { RunContext } from './run-context.js';
import { PhaseSampleColumns, type TransferSamples } from './sample-columns.js';
import { seededRandom } from './seeded-random.js';

const fileName = (index: number) => `file-${String(index).padStart(5, '0')}.dat`;

/** Writes every file of a files plan, then reads them all back (uncached). */
export async function runFilesPlan(
  context: RunContext,
  folder: string,
  plan: FilesPlan,
  seed: number,
): Promise<void> {
  const sizes = planFileSizes(plan, seed);
  const written: string[] = [];
  const planned = sizes.reduce((sum, bytes) => sum + bytes, 0);
  context.emit({ type: 'phase-started', phase: 'write' });
  const writeStart = context.startPhase('write', planned);
  const cliffWatch = new LiveCliffWatch();
  for (const [index, bytes] of sizes.entries()) {
    await context.ensureRoom(bytes, false);
    const file = path.join(folder, fileName(index));
    const transfer = await context.timedWrite(file, bytes, 'write');
    written.push(file);
    context.held.push({ path: file, bytes });
    reportLiveCliff(
      context,
      cliffWatch,
      await context.record('write', transfer, writeStart, sizes.length),
    );
  }
  if (!plan.readBack) return;
  context.emit({ type: 'phase-started', phase: 'read' });
  await context.evictBeforeReads(written);
  const readStart = context.startPhase('read', planned);
  for (const file of written) {
    const transfer = await context.timedRead(file);
    await context.record('read', transfer, readStart, written.length);
  }
}

/** Emits a `finding` when the watch sees a cliff (first found, or moved) after this file. */
export function reportLiveCliff(
  context: RunContext,
  watch: LiveCliffWatch,
  file: FileRecord,
): void {
  const cliff = watch.add(file, context.samples.get('write'));
  if (cliff) context.emit({ type: 'finding', finding: liveCliffFinding('write', cliff) });
}

/**
 * The total a sustained run writes: the option, the plan's, or the automatic default (the smaller
 * of the allowance and 4 × the cache guess) shrunk by `scale` like every other size of the plan.
 */
export function sustainedTotal(
  plan: SustainedPlan,
  totalOption: number | undefined,
  allowanceBytes: number,
  cacheGuess: number,
  scale = 1,
): number {
  return totalOption ?? plan.totalBytes ?? sustainedDefaultTotal(allowanceBytes, cacheGuess, scale);
}

/**
 * The sustained plan with its recovery probes sized to what may be written here (or none), and
 * the sentence saying so; the plan unchanged (and no sentence) where the plan's probe fits.
 */
export function sizeRecoveryProbes(
  plan: SustainedPlan,
  allowanceBytes: number,
  totalBytes: number,
  scale: number,
): { plan: SustainedPlan; note: string | null } {
  if (!plan.recovery) return { plan, note: null };
  const probe = recoveryProbeSize(plan.recovery.probeBytes, allowanceBytes, plan.minFileBytes);
  if (probe.note === null) return { plan, note: null };
  const recovery =
    probe.probeBytes === null ? null : { ...plan.recovery, probeBytes: probe.probeBytes };
  // Described from the sizes it runs with (a quick run's words say its share, as scalePlan's).
  const sized = { ...plan, recovery, totalBytes };
  const description = scale < 1 ? runPlanDescription(sized, scale) : planDescription(sized);
  return { plan: { ...plan, recovery, description }, note: probe.note };
}

/**
 * Keeps writing files (random log-uniform sizes) until the total or the time limit, rotating its
 * oldest files out when the guard needs room; then, if the plan asks and a cliff was found, idles
 * and probes until the rate is back. Returns the recovery record, if any.
 */
export async function runSustainedPlan(
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
    const file = path.join(folder, fileName(index));
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

/** Runs the queue-depth grid on one test file. */
export async function runPresetsPlan(
  context: RunContext,
  folder: string,
  plan: PresetsPlan,
): Promise<QueueRunResult[]> {
  const file = path.join(folder, 'queue-depth.dat');
  await context.ensureRoom(plan.fileBytes, false);
  const runs: QueueRunResult[] = [];
  context.emit({ type: 'phase-started', phase: 'queue' });
  for (const spec of plan.runs) {
    context.checkCancelled();
    const result = await context.io.queueRun(file, {
      ...spec,
      fileBytes: plan.fileBytes,
      durationSeconds: plan.durationSeconds,
      buffered: context.options.buffered,
      signal: context.options.signal,
      onSample: (sample) =>
        context.emit({
          type: 'sample',
          phase: 'queue',
          run: spec.name,
          bytesDone: 0,
          totalBytes: null,
          seconds: sample.t,
          bytesPerSecond: sample.bytesPerSecond,
        }),
    });
    context.cacheModes.add(result.cacheMode);
    runs.push({
      name: spec.name,
      op: spec.op,
      blockSize: spec.blockSize,
      queueDepth: spec.queueDepth,
      threads: spec.threads,
      bytesPerSecond: result.bytesPerSecond,
      iops: result.iops,
      latency: result.latency,
      samples: result.samples.map(({ t, bytesPerSecond }) => ({ t, bytesPerSecond })),
      engine: result.engine,
      cacheMode: result.cacheMode,
    });
  }
  return runs;
}
