import {
  resultSchemaVersion,
  type FileRecord,
  type Finding,
  type QueueRunResult,
  type ResultDocument,
} from '../../contract/bench.js';
import type { EarlierDrop } from '../analysis/drop-cause.js';
import { findings } from '../analysis/findings.js';
import type { InterfaceCeiling } from '../analysis/interface-ceiling.js';
import { phaseSummary } from '../analysis/phase-summary.js';

export interface ResultParts {
  id: string;
  startedAt: string;
  finishedAt?: string;
  appVersion: string;
  environment: ResultDocument['environment'];
  plan: ResultDocument['plan'];
  files: FileRecord[];
  runs?: QueueRunResult[];
  recovery?: ResultDocument['recovery'];
  notices?: string[];
  ceiling?: InterfaceCeiling;
  earlierDrops?: Partial<Record<'write' | 'read', EarlierDrop[]>>;
}

/** The summary of each phase and the findings, computed from the files of a run. */
export function analyzeFiles(
  files: readonly FileRecord[],
  options: Pick<ResultParts, 'ceiling' | 'earlierDrops' | 'recovery'> & {
    cacheMode: 'direct' | 'buffered';
  },
): { summary: ResultDocument['summary']; findings: Finding[] } {
  return {
    summary: {
      write: phaseSummary(files.filter((f) => f.phase === 'write')),
      read: phaseSummary(files.filter((f) => f.phase === 'read')),
    },
    findings: findings({
      files,
      cacheMode: options.cacheMode,
      ceiling: options.ceiling,
      earlierDrops: options.earlierDrops,
      recoverySeconds: options.recovery ? options.recovery.recoverySeconds : undefined,
    }),
  };
}

/** The results document (DESIGN.md) for a finished run. */
export function buildResult(parts: ResultParts): ResultDocument {
  const { summary, findings: found } = analyzeFiles(parts.files, {
    cacheMode: parts.environment.cacheMode,
    ceiling: parts.ceiling,
    earlierDrops: parts.earlierDrops,
    recovery: parts.recovery,
  });
  const document: ResultDocument = {
    schema: resultSchemaVersion,
    id: parts.id,
    startedAt: parts.startedAt,
    ...(parts.finishedAt ? { finishedAt: parts.finishedAt } : {}),
    app: { version: parts.appVersion },
    environment: parts.environment,
    plan: parts.plan,
    files: parts.files,
    summary,
    findings: found,
  };
  if (parts.runs) document.runs = parts.runs;
  if (parts.recovery) document.recovery = parts.recovery;
  if (parts.notices?.length) document.notices = parts.notices;
  return document;
}
