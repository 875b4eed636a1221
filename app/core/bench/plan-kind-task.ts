/**
 * The task kind's engine part: the compression timed from and to the disk and in memory
 * (task.ts). Its pure part is app/common/plan-kind-task.ts.
 */
import type { TaskPlan } from '../../contract/plan.js';
import { formatBytes } from '../../common/format.js';
import { singleTargetEngine } from './single-target.js';
import { runTaskPlan } from './task.js';

export const taskEngine = singleTargetEngine<TaskPlan>({
  refusal: ({ plan, spaceBytes }, room) =>
    `The ${plan.name} plan needs ${formatBytes(spaceBytes)} (its input and the compressed output), but only ${formatBytes(room.allowanceBytes)} may be used here. ${room.whatWouldWork(spaceBytes)}`,
  run: async ({ context, folder, sized, seed }) => ({
    task: await runTaskPlan(context, folder, sized.plan, seed),
  }),
});
