/**
 * Analysis of a CSV off the event loop, for the front doors that serve other requests meanwhile
 * (the web server, the desktop app): a million rows take seconds, and a cancel (or a closed page)
 * stops them at once.
 */
import type { ResultDocument } from '../../contract/bench-result.js';
import { PlumbError } from '../../contract/errors.js';
import { runOffThread, workerScript } from '../threads/off-thread.js';
import type { AnalyzeOptions } from './analyze.js';

export function analysisCancelled(): PlumbError {
  return new PlumbError('ECANCELED', 'The analysis was cancelled.');
}

/** analyzeCsvText in a worker thread; rejects with ECANCELED when `signal` aborts. */
export function analyzeCsvOffThread(
  csv: string,
  options: AnalyzeOptions,
  signal?: AbortSignal,
): Promise<ResultDocument> {
  return runOffThread(
    workerScript('csv-analysis-worker', import.meta.url),
    { csv, options },
    { signal, cancelled: analysisCancelled, doing: 'Analysing the CSV' },
  );
}
