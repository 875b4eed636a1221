/** The worker thread of analyzeCsvOffThread: one CSV analysed, its results document sent back. */
import { serveJob } from '../threads/thread-job.js';
import { analyzeCsvText, type AnalyzeOptions } from './analyze.js';

serveJob(({ csv, options }: { csv: string; options: AnalyzeOptions }) =>
  analyzeCsvText(csv, options),
);
