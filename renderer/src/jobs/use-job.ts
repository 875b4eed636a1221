/**
 * The renderer's one hook for long-running work: it picks the job's id before the work starts
 * (so it listens first and misses no event), follows that job's `job.event`s, and cancels it by
 * id. Every screen with an apply, a scan or a run that reports progress uses this; the bench's
 * run store (kept outside any screen) follows its runs' job events the same way.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { JobProgress, JobState } from '../../../app/contract/jobs.js';
import type { PlumbClient } from '../client.js';

export interface JobView {
  jobId: string;
  state: JobState;
  progress: JobProgress | null;
}

export interface UseJob {
  /** The latest job started here, as far as its events tell; null before the first. */
  job: JobView | null;
  /** Runs `start` (the call that starts the work) under a new job id; resolves as it does. */
  run<T>(start: (jobId: string) => Promise<T>): Promise<T>;
  /** Asks the running job to stop (an apply stops between files). */
  cancel(): Promise<void>;
}

/** A new job id: 128 random bits in hex (crypto.randomUUID needs a secure context). */
export function newJobId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function useJob(client: PlumbClient): UseJob {
  const [job, setJob] = useState<JobView | null>(null);
  const current = useRef<string | null>(null);

  useEffect(
    () =>
      client.on('job.event', (event) => {
        if (event.jobId !== current.current || event.type === 'bench') return;
        setJob((view) => {
          const base = view?.jobId === event.jobId ? view : null;
          const progress = event.type === 'progress' ? event.progress : (base?.progress ?? null);
          const state: JobState =
            event.type === 'started' || event.type === 'progress'
              ? (base?.state ?? 'running')
              : event.type;
          return { jobId: event.jobId, state, progress };
        });
      }),
    [client],
  );

  const run = useCallback(async <T>(start: (jobId: string) => Promise<T>): Promise<T> => {
    const jobId = newJobId();
    current.current = jobId;
    setJob({ jobId, state: 'running', progress: null });
    return start(jobId);
  }, []);

  const cancel = useCallback(async () => {
    const jobId = current.current;
    if (jobId === null) return;
    setJob((view) =>
      view?.jobId === jobId && view.state === 'running' ? { ...view, state: 'cancelling' } : view,
    );
    await client.call('jobs.cancel', { jobId });
  }, [client]);

  return { job, run, cancel };
}
