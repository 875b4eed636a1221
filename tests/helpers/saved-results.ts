/**
 * Results as the app saves them, for view tests: a write phase's files and samples made a whole
 * result document, and a document stored in the results folder `plumb serve` reads.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { phaseSummary } from '../../app/core/analysis/phase-summary.js';
import { analyzeCsvText } from '../../app/core/bench/analyze.js';
import { resultJson } from '../../app/core/bench/results-store.js';
import type { ModelWritePhase } from './model-write-phase.js';

/**
 * A saved document of a write phase: its summary from the files, its samples kept, no findings
 * (as an earlier Plumb saved it; reanalyzeDocument finds them); `fields` name the rest.
 */
export function writePhaseDocument(
  { files, samples }: ModelWritePhase,
  fields: { id: string; plan: object; environment: object } & Record<string, unknown>,
): ResultDocument {
  const analysed = analyzeCsvText('bytes,seconds\n1,1\n', { appVersion: '0.1.0' });
  return ResultDocument.parse({
    ...analysed,
    files,
    summary: { write: phaseSummary(files), read: phaseSummary([]) },
    samplesByPhase: { write: samples },
    findings: [],
    headline: undefined,
    ...fields,
  });
}

/** Stores a document in the results folder `plumb serve` reads, as the app would have saved it. */
export function storeResult(document: ResultDocument): ResultDocument {
  const results = path.join(process.env.PLUMB_DATA_DIR!, 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(path.join(results, `${document.id}.json`), resultJson(document));
  return document;
}
