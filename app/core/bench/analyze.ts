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
  type FileRecord,
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
import { readTransferColumns } from '../analysis/transfers-csv.js';
import { analyzeFiles } from './build-result.js';
import { filesHeadline, rateChanged, withHeadline } from '../analysis/headline-rate.js';
import { findingsOfPhases } from '../analysis/findings.js';
import { phaseSummaryOf } from '../analysis/phase-summary.js';
import type { PhaseColumns } from '../analysis/transfer-columns.js';
import { LazyItems } from '../json-out.js';

export interface AnalyzeOptions {
  phase?: Phase;
  ceiling?: InterfaceCeiling;
  appVersion: string;
  /** Where the data came from, recorded in the plan. */
  source?: string;
}

/**
 * A results document whose files are held as columns, made into objects only as they are written
 * (a CSV's: a million files as objects were most of the analysis's memory).
 */
export type ColumnsDocument = {
  [K in keyof ResultDocument as K extends 'files' ? never : K]: ResultDocument[K];
} & { files: LazyItems<FileRecord> };

const noFiles: PhaseColumns = {
  bytes: new Float64Array(0),
  seconds: new Float64Array(0),
  cumulativeBytes: new Float64Array(0),
  t: new Float64Array(0),
};

/**
 * A results document for transfers read from CSV, its files held as columns from the parse
 * through findings and summary; `t` is the running sum of seconds.
 */
export function analyzeCsvColumns(csv: string, options: AnalyzeOptions): ColumnsDocument {
  const phase = options.phase ?? 'write';
  const id = `csv-${createHash('sha256').update(csv).digest('hex').slice(0, 12)}`;
  const { count, bytes, seconds, cumulativeBytes } = readTransferColumns(csv);
  const t = new Float64Array(count);
  for (let i = 0, sum = 0; i < count; i += 1) t[i] = sum += seconds[i]!;
  const rows: PhaseColumns = { bytes, seconds, cumulativeBytes, t };
  const phases =
    phase === 'write' ? { write: rows, read: noFiles } : { write: noFiles, read: rows };
  const findings = findingsOfPhases(phases, { cacheMode: 'direct', ceiling: options.ceiling });
  const headline = {
    write: filesHeadline(phases.write, 'write', rateChanged(findings, 'write')),
    read: filesHeadline(phases.read, 'read', rateChanged(findings, 'read')),
  };
  const summary = { write: phaseSummaryOf(phases.write), read: phaseSummaryOf(phases.read) };
  const files = new LazyItems<FileRecord>(count, (start, end) =>
    Array.from({ length: end - start }, (_, k) => {
      const i = start + k;
      return {
        phase,
        bytes: bytes[i]!,
        seconds: seconds[i]!,
        cumulativeBytes: cumulativeBytes[i]!,
        t: t[i]!,
        temperatureC: null,
      };
    }),
  );
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

/** A results document for transfers read from CSV (analyzeCsvColumns, its files made objects). */
export function analyzeCsvText(csv: string, options: AnalyzeOptions): ResultDocument {
  const document = analyzeCsvColumns(csv, options);
  return { ...document, files: document.files.toJSON() };
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
  const document = await analyzeFileColumns(file, options);
  return document.files instanceof LazyItems
    ? { ...document, files: document.files.toJSON() }
    : (document as ResultDocument);
}

/** analyzeFile, a CSV's files held as columns (ColumnsDocument). */
export async function analyzeFileColumns(
  file: string,
  options: AnalyzeOptions,
): Promise<ResultDocument | ColumnsDocument> {
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
  return analyzeCsvColumns(text, { ...options, source: path.basename(file) });
}
