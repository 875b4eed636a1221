/**
 * A run as the UI follows it: its events (from its `job.event`s) folded into one state. Pure apart from one habit:
 * the point arrays are append-only and shared between successive states, so following a run of
 * 10,000 files costs one push per event, not a copy.
 */
import type { BenchEvent, RecoveryWait } from '../../../../app/contract/bench-events.js';
import type { FileRecord, Finding } from '../../../../app/contract/bench-result.js';
import { LivePhaseSamples, type Direction } from './live-samples.js';
import type { Point } from '../../ui/result/series.js';

export type LivePhase = 'starting' | 'write' | 'read' | 'queue' | 'recovery';
export type LiveStatus = 'running' | 'finished' | 'failed' | 'cancelled';

export interface LiveQueueRun {
  name: string;
  /** Mean of the samples so far, bytes/s. */
  bytesPerSecond: number;
  samples: number;
  done: boolean;
}

export interface LiveRun {
  runId: string;
  planName: string;
  target: string;
  status: LiveStatus;
  phase: LivePhase;
  plannedFiles: number | null;
  filesDone: number;
  /** Bytes of the run moved so far: from progress samples, or finished files when samples are rare. */
  bytesDone: number;
  /** Bytes of finished files (writes and reads). */
  fileBytesDone: number;
  totalBytes: number | null;
  /** Seconds since the run started, as last reported. */
  seconds: number;
  /** Rate of the transfer going on now. */
  currentRate: number | null;
  files: FileRecord[];
  /**
   * Rate against the phase's bytes, from its samples (mutable, shared between states like the
   * arrays): a phase started again (a second write phase) starts a new one.
   */
  rates: Partial<Record<Direction, LivePhaseSamples>>;
  /** Rate over run time, for the "bytes/s over time" chart (queue runs laid end to end). */
  throughput: Point[];
  queueRuns: LiveQueueRun[];
  findings: Finding[];
  notices: string[];
  resultId: string | null;
  error: { code: string; message: string } | null;
  /** Seconds of queue runs already finished, so their samples line up end to end. */
  queueOffset: number;
  /**
   * The latest rest before a recovery probe (over once its seconds have passed: the probe is then
   * written), with the run's bytes when it began; null outside the recovery.
   */
  recoveryWait: (RecoveryWait & { bytesBefore: number }) | null;
  /** Where the phase going on began: the run's seconds and bytes then (for its own pace). */
  phaseStart: { seconds: number; bytes: number };
  /** Bumped on every change, so views can tell a new state from an old one cheaply. */
  version: number;
}

export function newLiveRun(runId: string, planName: string, target: string): LiveRun {
  return {
    runId,
    planName,
    target,
    status: 'running',
    phase: 'starting',
    plannedFiles: null,
    filesDone: 0,
    bytesDone: 0,
    fileBytesDone: 0,
    totalBytes: null,
    seconds: 0,
    currentRate: null,
    files: [],
    rates: {},
    throughput: [],
    queueRuns: [],
    findings: [],
    notices: [],
    resultId: null,
    error: null,
    queueOffset: 0,
    recoveryWait: null,
    phaseStart: { seconds: 0, bytes: 0 },
    version: 0,
  };
}

function queueSample(run: LiveRun, name: string, seconds: number, rate: number): Partial<LiveRun> {
  const queueRuns = [...run.queueRuns];
  let current = queueRuns.at(-1);
  let queueOffset = run.queueOffset;
  if (!current || current.name !== name) {
    if (current) {
      queueRuns[queueRuns.length - 1] = { ...current, done: true };
      const lastT = run.throughput.at(-1)?.x ?? queueOffset;
      queueOffset = lastT;
    }
    current = { name, bytesPerSecond: 0, samples: 0, done: false };
    queueRuns.push(current);
  }
  const samples = current.samples + 1;
  queueRuns[queueRuns.length - 1] = {
    ...current,
    samples,
    bytesPerSecond: current.bytesPerSecond + (rate - current.bytesPerSecond) / samples,
  };
  run.throughput.push({ x: queueOffset + seconds, y: rate });
  return { queueRuns, queueOffset };
}

/** `file` added to its phase's samples (made on the first file when the phase start was missed). */
export function fileDone(rates: LiveRun['rates'], file: FileRecord): LiveRun['rates'] {
  const samples = rates[file.phase] ?? new LivePhaseSamples();
  samples.fileDone(file);
  return rates[file.phase] ? rates : { ...rates, [file.phase]: samples };
}

const isDrop = (finding: Finding) => finding.kind === 'cliff' || finding.kind === 'throttling';

/**
 * The findings with `finding` added: a cliff found again (its place revised while the run goes
 * on, or the final one) replaces the earlier one of its phase, so the chart marks one.
 */
export function withFinding(findings: readonly Finding[], finding: Finding): Finding[] {
  const kept = isDrop(finding)
    ? findings.filter((f) => !(isDrop(f) && f.phase === finding.phase))
    : findings;
  return [...kept, finding];
}

/** The state after `event`; events of other runs leave it as it is. */
export function applyBenchEvent(run: LiveRun, event: BenchEvent): LiveRun {
  if (event.runId !== run.runId) return run;
  const next = (changes: Partial<LiveRun>): LiveRun => ({
    ...run,
    ...changes,
    version: run.version + 1,
  });
  switch (event.type) {
    case 'plan-started':
      return next({
        planName: event.plan,
        target: event.target,
        plannedFiles: event.files,
        totalBytes: event.bytes,
      });
    case 'phase-started':
      return next({
        phase: event.phase,
        currentRate: null,
        recoveryWait: null,
        phaseStart: { seconds: run.seconds, bytes: run.bytesDone },
        rates:
          event.phase === 'write' || event.phase === 'read'
            ? { ...run.rates, [event.phase]: new LivePhaseSamples() }
            : run.rates,
      });
    case 'file-done': {
      run.files.push(event.file);
      const rates = fileDone(run.rates, event.file);
      // Small files finish between progress samples: they move the figures too.
      const fileBytesDone = run.fileBytesDone + event.file.bytes;
      return next({
        filesDone: run.filesDone + 1,
        fileBytesDone,
        bytesDone: Math.max(run.bytesDone, fileBytesDone),
        currentRate: event.rate ?? run.currentRate,
        rates,
      });
    }
    case 'wait': {
      const { type: _type, runId: _runId, ...wait } = event;
      return next({
        recoveryWait: { ...wait, bytesBefore: run.bytesDone },
        seconds: Math.max(run.seconds, event.atSeconds),
        currentRate: null,
      });
    }
    case 'sample': {
      const changes: Partial<LiveRun> = {
        seconds: event.phase === 'queue' ? run.seconds : event.seconds,
        currentRate: event.bytesPerSecond,
      };
      if (event.phase === 'queue') {
        if (event.bytesPerSecond !== null)
          Object.assign(
            changes,
            queueSample(run, event.run ?? 'queue', event.seconds, event.bytesPerSecond),
          );
      } else {
        changes.bytesDone = Math.max(event.bytesDone, run.fileBytesDone);
        if (event.totalBytes !== null) changes.totalBytes = event.totalBytes;
        if (event.bytesPerSecond !== null)
          run.throughput.push({ x: event.seconds, y: event.bytesPerSecond });
        if (event.phase === 'write' || event.phase === 'read')
          run.rates[event.phase]?.sample(event.bytesDone - run.fileBytesDone, event.bytesPerSecond);
      }
      return next(changes);
    }
    case 'finding':
      return next({ findings: withFinding(run.findings, event.finding) });
    case 'notice':
      return next({ notices: [...run.notices, event.message] });
    case 'finished':
      return next({
        status: 'finished',
        recoveryWait: null,
        resultId: event.resultId,
        findings: event.findings,
        queueRuns: run.queueRuns.map((q) => ({ ...q, done: true })),
      });
    case 'failed':
      return next({ status: 'failed', error: event.error, recoveryWait: null });
    case 'cancelled':
      return next({ status: 'cancelled', recoveryWait: null });
  }
}

/** The most a running run shows done: its last bytes are followed by analysis and saving. */
const mostWhileRunning = 0.99;

/**
 * Share of the run done, 0…1, or null while the total is unknown. A run still going never shows
 * all of it done, and the recovery (probes until the rate is back, however many) has no share.
 */
export function progressFraction(run: LiveRun): number | null {
  if (run.status === 'finished') return 1;
  if (run.phase === 'recovery') return null;
  const most = run.status === 'running' ? mostWhileRunning : 1;
  if (run.totalBytes && run.totalBytes > 0) return Math.min(most, run.bytesDone / run.totalBytes);
  if (run.plannedFiles && run.plannedFiles > 0)
    return Math.min(most, run.filesDone / run.plannedFiles);
  return null;
}

/** A phase's own pace counts once it has run this long; before, the whole run's average. */
const phasePaceSeconds = 2;

/**
 * Seconds left at the pace of the phase going on (a read-back is not as fast as the writing
 * before it), or the run's average before that is known; null until there is a rate and a total,
 * and during the recovery (its wait says its own time). `elapsed` is the run's time as the
 * viewer's clock has it, when that is ahead of the last sample.
 */
export function secondsLeft(run: LiveRun, elapsed = run.seconds): number | null {
  const seconds = Math.max(run.seconds, elapsed);
  if (run.status !== 'running' || run.phase === 'recovery') return null;
  if (!run.totalBytes || run.bytesDone <= 0 || seconds <= 0) return null;
  // On the run's own clock, as the phase's start was noted: the viewer's clock runs ahead of the
  // last sample, and a phase just begun would otherwise count as seconds old with few bytes
  // done ("11 min 7 s" left for a moment as a quick run turned to its read-back).
  const phaseSeconds = run.seconds - run.phaseStart.seconds;
  const phaseBytes = run.bytesDone - run.phaseStart.bytes;
  const rate =
    phaseSeconds >= phasePaceSeconds && phaseBytes > 0
      ? phaseBytes / phaseSeconds
      : run.bytesDone / seconds;
  return Math.max(0, (run.totalBytes - run.bytesDone) / rate);
}

/** Bytes of one direction so far, from its samples and files (reads move bytes but write none). */
export function bytesSoFar(run: LiveRun, direction: Direction): number {
  return run.rates[direction]?.bytesSoFar ?? 0;
}
