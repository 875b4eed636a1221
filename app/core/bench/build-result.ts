import {
  resultSchemaVersion,
  type FileRecord,
  type Finding,
  type QueueRunResult,
  type ResultDocument,
  type SamplesByPhase,
} from '../../contract/bench-result.js';
import os from 'node:os';
import { cacheReach } from '../analysis/cache-reach.js';
import type { EarlierDrop } from '../analysis/drop-cause.js';
import { findings } from '../analysis/findings.js';
import { withHeadline } from '../analysis/headline-rate.js';
import {
  ceilingToCheck,
  recordedCeiling,
  type InterfaceCeiling,
} from '../analysis/interface-ceiling.js';
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
  paired?: ResultDocument['paired'];
  task?: ResultDocument['task'];
  verify?: ResultDocument['verify'];
  notices?: string[];
  ceiling?: InterfaceCeiling;
  /** Paired runs: the ceiling of each target's interface (default: `ceiling`). */
  targetCeilings?: Partial<Record<'a' | 'b', InterfaceCeiling>>;
  earlierDrops?: Partial<Record<'write' | 'read', EarlierDrop[]>>;
  /** The plan's --scale (1: a full run). */
  scale?: number;
  /** Samples taken inside the files of each phase. */
  samplesByPhase?: SamplesByPhase;
  /** The computer's memory (default: os.totalmem()), for the within-cache finding. */
  ramBytes?: number;
}

type AnalyzeOptions = Pick<
  ResultParts,
  'ceiling' | 'targetCeilings' | 'earlierDrops' | 'recovery' | 'samplesByPhase'
> & {
  cacheMode: 'direct' | 'buffered';
};

/**
 * Findings of a paired run, per target, from the files each moved alone: mixed together, two
 * drives of different speed would read as two modes, and rates together are the interference
 * verdict's business. Each finding names its target.
 */
function pairedFindings(files: readonly FileRecord[], options: AnalyzeOptions): Finding[] {
  const found: Finding[] = [];
  (['a', 'b'] as const).forEach((target, index) => {
    const own = files.filter((f) => f.target === target && f.stage === 'alone');
    const forTarget = findings({
      files: own,
      cacheMode: options.cacheMode,
      ceiling: options.targetCeilings?.[target] ?? options.ceiling,
    });
    for (const finding of forTarget) {
      // The buffered finding is about the run, not a target: keep one.
      if (finding.kind === 'buffered' && index > 0) continue;
      found.push(
        finding.kind === 'buffered'
          ? finding
          : { ...finding, target, message: `Target ${target}: ${finding.message}` },
      );
    }
  });
  return found;
}

/** The findings of a run's files. */
export function fileFindings(files: readonly FileRecord[], options: AnalyzeOptions): Finding[] {
  return files.some((f) => f.target !== undefined)
    ? pairedFindings(files, options)
    : findings({
        files,
        cacheMode: options.cacheMode,
        ceiling: options.ceiling,
        earlierDrops: options.earlierDrops,
        recoverySeconds: options.recovery ? options.recovery.recoverySeconds : undefined,
        samples: options.samplesByPhase,
      });
}

/** The summary of each phase of a run's files. */
export function phaseSummaries(files: readonly FileRecord[]): ResultDocument['summary'] {
  return {
    write: phaseSummary(files.filter((f) => f.phase === 'write')),
    read: phaseSummary(files.filter((f) => f.phase === 'read')),
  };
}

/**
 * The summary of each phase and the findings, computed from the files of a run. The findings
 * first: with a million files the summary's rate-vs-size curve is large, and the findings' passes
 * need not hold it.
 */
export function analyzeFiles(
  files: readonly FileRecord[],
  options: AnalyzeOptions,
): { summary: ResultDocument['summary']; findings: Finding[] } {
  const found = fileFindings(files, options);
  return { summary: phaseSummaries(files), findings: found };
}

/** Whether the run got past the drive's and the OS's caches (a finding when it did not). */
function withinCache(parts: ResultParts): Finding[] {
  const gridFileBytes = parts.runs?.length
    ? (parts.plan as { fileBytes?: number }).fileBytes
    : undefined;
  return cacheReach({
    files: parts.files,
    cacheMode: parts.environment.cacheMode,
    volumeBytes: parts.environment.volume.totalBytes,
    ramBytes: parts.ramBytes ?? os.totalmem(),
    gridFileBytes,
  });
}

/** The results document (DESIGN.md) for a finished run. */
export function buildResult(parts: ResultParts): ResultDocument {
  const { summary, findings: found } = analyzeFiles(parts.files, {
    cacheMode: parts.environment.cacheMode,
    ceiling: parts.ceiling,
    targetCeilings: parts.targetCeilings,
    earlierDrops: parts.earlierDrops,
    recovery: parts.recovery,
    samplesByPhase: parts.samplesByPhase,
  });
  const document: ResultDocument = {
    schema: resultSchemaVersion,
    scale: parts.scale ?? 1,
    id: parts.id,
    startedAt: parts.startedAt,
    ...(parts.finishedAt ? { finishedAt: parts.finishedAt } : {}),
    app: { version: parts.appVersion },
    environment: { ...parts.environment, ceiling: recordedCeiling(ceilingToCheck(parts.ceiling)) },
    plan: parts.plan,
    files: parts.files,
    summary,
    findings: [...found, ...withinCache(parts)],
  };
  if (parts.runs) document.runs = parts.runs;
  if (parts.recovery) document.recovery = parts.recovery;
  if (parts.paired) document.paired = parts.paired;
  if (parts.task) document.task = parts.task;
  if (parts.verify) document.verify = parts.verify;
  if (parts.notices?.length) document.notices = parts.notices;
  if (parts.samplesByPhase) document.samplesByPhase = parts.samplesByPhase;
  return withHeadline(document);
}
