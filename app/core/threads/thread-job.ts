/**
 * The worker's side of runOffThread (off-thread.ts): runs the job on the input it was given and
 * reports its value, the text it streams out, or its error, as messages to the thread that
 * started it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { toErrorPayload, type ErrorPayload } from '../../contract/errors.js';

export type JobReport =
  | { type: 'chunk'; text: string }
  | { type: 'done'; value: unknown }
  | { type: 'failed'; error: ErrorPayload };

/** Sends a piece of the job's output; resolves when the other side has taken it (backpressure). */
export type SendChunk = (text: string) => Promise<void>;

function sendChunk(text: string): Promise<void> {
  return new Promise((resolve) => {
    parentPort!.once('message', () => resolve());
    parentPort!.postMessage({ type: 'chunk', text } satisfies JobReport);
  });
}

/** Runs `job` on this worker's input and reports how it ended. */
export function serveJob<I>(job: (input: I, send: SendChunk) => unknown): void {
  if (!parentPort) throw new Error('serveJob runs in a worker thread.');
  const port = parentPort;
  Promise.resolve()
    .then(() => job(workerData as I, sendChunk))
    .then(
      (value) => port.postMessage({ type: 'done', value } satisfies JobReport),
      (error: unknown) =>
        port.postMessage({ type: 'failed', error: toErrorPayload(error) } satisfies JobReport),
    );
}
