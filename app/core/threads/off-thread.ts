/**
 * Heavy work off the event loop: a job runs in a worker thread of its own, so a server keeps
 * answering other requests and a command hears Ctrl-C while it computes. Cancelling terminates
 * the thread at once: JavaScript busy in a computation cannot be interrupted any other way.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { PlumbError } from '../../contract/errors.js';
import type { JobReport } from './thread-job.js';

/**
 * The worker script `name` for a module at `callerUrl`: beside it when running from the sources,
 * else the build's `name.js` in the bundle's folder or one above (dist/ for dist/cli-chunks/ and
 * dist/desktop/).
 */
export function workerScript(name: string, callerUrl: string): URL {
  if (callerUrl.endsWith('.ts')) return new URL(`./${name}.ts`, callerUrl);
  let dir = path.dirname(fileURLToPath(callerUrl));
  for (let depth = 0; depth < 3; depth += 1) {
    const candidate = path.join(dir, `${name}.js`);
    if (existsSync(candidate)) return pathToFileURL(candidate);
    dir = path.dirname(dir);
  }
  throw new PlumbError('EINTERNAL', `Plumb's build lacks ${name}.js: run \`npm run build\`.`);
}

/**
 * A worker for `script`. The sources run under tsx (tests), whose hooks Node 20 does not carry into
 * worker threads: such a worker registers tsx itself before it loads the script.
 */
function startWorker(script: URL, input: unknown, resourceLimits?: ResourceLimits): Worker {
  if (!script.pathname.endsWith('.ts')) {
    return new Worker(script, { workerData: input, resourceLimits });
  }
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(script.href)}); });`;
  return new Worker(boot, { eval: true, workerData: input, resourceLimits });
}

export interface OffThreadOptions {
  signal?: AbortSignal;
  /** The error a cancel rejects with (ECANCELED, saying what was cancelled). */
  cancelled: () => PlumbError;
  /** Takes the text the job streams out, in order; the job waits until it resolves. */
  onChunk?: (text: string) => Promise<void> | void;
  /** What the job is, for the sentence when its thread dies ("Analysing data.csv"). */
  doing: string;
  resourceLimits?: ResourceLimits;
}

/**
 * Runs the job in `script` (which calls serveJob, thread-job.ts) on `input` in a worker thread:
 * its value, or its error as a PlumbError with the same code and sentence.
 */
export function runOffThread<T>(
  script: URL,
  input: unknown,
  options: OffThreadOptions,
): Promise<T> {
  if (options.signal?.aborted) return Promise.reject(options.cancelled());
  return new Promise<T>((resolve, reject) => {
    const worker = startWorker(script, input, options.resourceLimits);
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      outcome();
      void worker.terminate();
    };
    const onAbort = () => settle(() => reject(options.cancelled()));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (report: JobReport) => {
      if (report.type === 'chunk') {
        void Promise.resolve(options.onChunk?.(report.text)).then(
          () => worker.postMessage('next'),
          (error: unknown) => settle(() => reject(error)),
        );
      } else if (report.type === 'done') settle(() => resolve(report.value as T));
      else settle(() => reject(new PlumbError(report.error.code, report.error.message)));
    });
    worker.on('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new PlumbError(
                'ENOMEM',
                `${options.doing} needed more memory than this computer could give it: close other programs, or give a smaller input.`,
                { cause: error },
              )
            : new PlumbError('EINTERNAL', `${options.doing} failed: ${error.message}`, {
                cause: error,
              }),
        ),
      ),
    );
    worker.on('exit', (code) =>
      settle(() =>
        reject(
          new PlumbError(
            'EINTERNAL',
            `${options.doing} stopped before it finished (code ${code}).`,
          ),
        ),
      ),
    );
  });
}
