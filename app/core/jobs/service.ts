/** The process's job registry, publishing through the event hub, and the jobs.* operations. */
import type { Handlers } from '../dispatch.js';
import { eventHub } from '../event-hub.js';
import { JobRegistry } from './registry.js';

/** Every long-running job of this process, whichever front door started it. */
export const jobs = new JobRegistry((event, origin) =>
  eventHub.publish('job.event', event, origin),
);

export function jobHandlers(
  registry: JobRegistry = jobs,
): Pick<Handlers, 'jobs.list' | 'jobs.cancel'> {
  return {
    'jobs.list': async (_input, context) => ({ jobs: registry.list(context.session) }),
    'jobs.cancel': async ({ jobId }, context) => ({
      cancelled: registry.cancel(jobId, context.session),
    }),
  };
}
