/**
 * The presets kind's engine part: the queue-depth grid, each run for its set time on one test
 * file. Its pure part is app/common/plan-kind-presets.ts.
 */
import path from 'node:path';
import type { QueueRunResult } from '../../contract/bench-result.js';
import type { PresetsPlan } from '../../contract/plan.js';
import { formatBytes } from '../../common/format.js';
import type { RunContext } from './run-context.js';
import { singleTargetEngine } from './single-target.js';

export const presetsEngine = singleTargetEngine<PresetsPlan>({
  refusal: ({ plan }, room) =>
    `The queue-depth test file of ${formatBytes(plan.fileBytes)} does not fit in the ${formatBytes(room.allowanceBytes)} that may be used here. ${room.whatWouldWork(plan.fileBytes)}`,
  run: async ({ context, folder, sized }) => ({
    runs: await runPresetsPlan(context, folder, sized.plan),
  }),
});

/** Runs the queue-depth grid on one test file. */
async function runPresetsPlan(
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
