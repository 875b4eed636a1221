/**
 * The worker thread of `plumb analyze`: reads and analyses the file, and sends back what the
 * command prints (the summary, or the document as JSON in pieces), never the document itself: a
 * million files' document copied between threads would double the memory. A CSV's files stay
 * columns: the summary reads none of them, and --json makes them objects a few at a time.
 */
import { analyzeFileColumns, type AnalyzeOptions } from '../../core/bench/analyze.js';
import { jsonBatches, LazyItems } from '../../core/json-out.js';
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
  const document = await analyzeFileColumns(file, options);
  if (!json) {
    // The summary's words read the document's headline, summary and findings, not its files.
    const files = document.files instanceof LazyItems ? [] : document.files;
    return send(describeResult({ ...document, files }));
  }
  for (const batch of jsonBatches(document, documentLevels)) await send(batch);
  return send('\n');
});
