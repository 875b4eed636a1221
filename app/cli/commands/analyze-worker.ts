/**
 * The worker thread of `plumb analyze`: reads and analyses the file, and sends back what the
 * command prints (the summary, or the document as JSON in pieces), never the document itself: a
 * million files' document copied between threads would double the memory.
 */
import { analyzeFile, type AnalyzeOptions } from '../../core/bench/analyze.js';
import { jsonBatches } from '../../core/json-out.js';
import { serveJob } from '../../core/threads/thread-job.js';
import { describeResult } from '../bench/summary.js';

export interface AnalyzeJob {
  file: string;
  options: AnalyzeOptions;
  json: boolean;
}

/** Levels of the document opened to find its large arrays: files, and summary.write.bySize. */
const documentLevels = 4;

serveJob(async ({ file, options, json }: AnalyzeJob, send) => {
  const document = await analyzeFile(file, options);
  if (!json) return send(describeResult(document));
  for (const batch of jsonBatches(document, documentLevels)) await send(batch);
  return send('\n');
});
