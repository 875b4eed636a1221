/**
 * `plumb analyze`: the same summary and findings for a results document or for a CSV of
 * `bytes,seconds[,cumulativeBytes]` from any tool.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import {
  ResultDocument,
  resultSchemaVersion,
  resultSchemaVersions,
  type Phase,
} from '../../contract/bench-result.js';
import { readInputFile } from '../input-file.js';
import { PlumbError } from '../../contract/errors.js';
import {
  ceilingToCheck,
  interfaceCeilingForBus,
  recordedCeiling,
  type InterfaceCeiling,
} from '../analysis/interface-ceiling.js';
import { parseTransfersCsv } from '../analysis/transfers-csv.js';
import { analyzeFiles, fileFindings, phaseSummaries } from './build-result.js';
import { withHeadline } from '../analysis/headline-rate.js';

export interface AnalyzeOptions {
  phase?: Phase;
  ceiling?: InterfaceCeiling;
  appVersion: string;
  /** Where the data came from, recorded in the plan. */
  source?: string;
}

/** A results document for transfers read from CSV; `t` is the running sum of seconds. */
export function analyzeCsvText(csv: string, options: AnalyzeOptions): ResultDocument {
  const phase = options.phase ?? 'write';
  const id = `csv-${createHash('sha256').update(csv).digest('hex').slice(0, 12)}`;
  let t = 0;
  const files = parseTransfersCsv(csv, (bytes, seconds, cumulativeBytes) => {
    t += seconds;
    return { phase, bytes, seconds, cumulativeBytes, t, temperatureC: null };
  });
  const findings = fileFindings(files, { cacheMode: 'direct', ceiling: options.ceiling });
  // The headline (its rule may read the findings) before the summary, whose rate-vs-size curve
  // for a million files of many sizes need not be held meanwhile.
  const analysed = { files, findings };
  const { headline } = withHeadline(analysed);
  const summary = phaseSummaries(files);
  return {
    schema: resultSchemaVersion,
    scale: 1,
    id,
    startedAt: new Date().toISOString(),
    app: { version: options.appVersion },
    environment: {
      os: 'unknown',
      volume: { path: 'unknown', fsType: null, totalBytes: 0, freeBytes: 0, bus: null },
      cacheMode: 'direct',
      cacheDefeat: 'unknown: measured by another tool',
      ceiling: recordedCeiling(ceilingToCheck(options.ceiling)),
    },
    plan: { name: 'imported-csv', ...(options.source ? { source: options.source } : {}) },
    files,
    summary,
    findings,
    headline,
  };
}

/** The document with its summary and findings computed afresh (by this version of Plumb). */
export function reanalyzeDocument(
  document: ResultDocument,
  ceiling?: InterfaceCeiling,
): ResultDocument {
  const checked = ceiling ?? interfaceCeilingForBus(document.environment.volume.bus);
  const { summary, findings } = analyzeFiles(document.files, {
    cacheMode: document.environment.cacheMode,
    ceiling: checked,
    recovery: document.recovery,
    samplesByPhase: document.samplesByPhase,
  });
  const environment = {
    ...document.environment,
    ceiling: recordedCeiling(ceilingToCheck(checked)),
  };
  return withHeadline({ ...document, environment, summary, findings, headline: undefined });
}

/** Reads a results JSON or a CSV file and analyses it. */
export async function analyzeFile(file: string, options: AnalyzeOptions): Promise<ResultDocument> {
  let text: string;
  try {
    text = await readInputFile(file);
  } catch (cause) {
    if (cause instanceof PlumbError) throw cause;
    const code = (cause as NodeJS.ErrnoException).code ?? 'EIO';
    throw new PlumbError(code, `Cannot read ${file}: ${(cause as Error).message}`, { cause });
  }
  if (file.toLowerCase().endsWith('.json') || text.trimStart().startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new PlumbError('EINVAL', `${file} is not valid JSON: ${(cause as Error).message}`, {
        cause,
      });
    }
    const parsed = ResultDocument.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new PlumbError(
        'EINVAL',
        `${file} is not a Plumb result (${resultSchemaVersions.join(' or ')}) document (${issue?.path.join('.') || 'top'}: ${issue?.message}).`,
      );
    }
    return reanalyzeDocument(parsed.data, options.ceiling);
  }
  return analyzeCsvText(text, { ...options, source: path.basename(file) });
}
