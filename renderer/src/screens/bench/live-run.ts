/**
 * A run as the UI follows it: its events (from its `job.event`s) folded into one state. Pure apart from one habit:
 * the point arrays are append-only and shared between successive states, so following a run of
 * 10,000 files costs one push per event, not a copy.
 */
import type { BenchEvent, RecoveryWait } from '../../../../app/contract/bench-events.js';
import type { FileRecord, Finding } from '../../../../app/contract/bench-result.js';
import { LivePhaseSamples, type Direction } from './live-samples.js';
import type { Point } from '../../ui/result/series.js';
import type { RunRates } from '../../../../app/common/plan-kind.js';

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
  /** Work of the write and read phases so far: files finished and their bytes, each direction. */
  work: Record<Direction, { files: number; bytes: number }>;
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
    work: { write: { files: 0, bytes: 0 }, read: { files: 0, bytes: 0 } },
    version: 0,
  };
}

/** `work` with a finished file counted (and nothing of it going on any more). */
export function workWithFile(work: LiveRun['work'], file: FileRecord): LiveRun['work'] {
  if (file.phase !== 'write' && file.phase !== 'read') return work;
  const done = work[file.phase];
  return { ...work, [file.phase]: { files: done.files + 1, bytes: done.bytes + file.bytes } };
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
        work: workWithFile(run.work, event.file),
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
 * What the run was expected to take when it started: the time announced for it (its recovery
 * checks apart) and the rates that time came from (earlier runs on the volume, or typical ones).
 */
export interface RunExpectation {
  seconds: number;
  rates: RunRates;
  /** The rates were measured on this volume (true) or are typical for its bus (a first guess). */
  measured: boolean;
}

/**
 * How much the expectation counts against the run's own pace, as a share of the run's expected
 * work: the pace counts as (share done) / (share done + this) of the way from the expected pace
 * to the measured one, on a log scale (a disk 8× as fast as guessed is not pulled back to 4×).
 * Rates measured on the volume before hold their ground for about a quarter of the run; a first
 * guess only a twentieth, so the run's first files soon outweigh it.
 */
const expectationWeight = { measured: 0.25, guess: 0.05 };

/**
 * Expected seconds of the work done so far: each direction's finished files and bytes (and the
 * bytes of the file going on) at the expected rates and costs per file.
 */
function expectedSecondsDone(run: LiveRun, rates: RunRates): number {
  const { write, read } = run.work;
  // The file going on: the run's bytes past those of its finished files.
  const current =
    run.phase === 'write' || run.phase === 'read'
      ? Math.max(0, run.bytesDone - run.fileBytesDone)
      : 0;
  const currentRate = run.phase === 'read' ? rates.readRate : rates.writeRate;
  return (
    write.files * rates.writeFileSeconds +
    write.bytes / rates.writeRate +
    read.files * rates.readFileSeconds +
    read.bytes / rates.readRate +
    current / currentRate
  );
}

/** The run's expectation, and how long its work has gone on: seconds since its first phase began. */
export interface ExpectedSoFar {
  expected: RunExpectation;
  working: number;
}

/**
 * Seconds left, or null until there is a total and something done, and during the recovery (its
 * wait says its own time). `elapsed` is the run's time as the viewer's clock has it, when that is
 * ahead of the last sample.
 *
 * With the run's expectation, the time left is the expected time of the work still to do, scaled
 * by how the work done so far compares with its expected time: the expectation's own model of
 * the run (per-file costs, a read-back at the read rate, the analysis after), corrected by the
 * run's pace. A byte count alone misleads where the model does not: a quick first run writes its
 * 160 files at 0.35 GB/s and reads them back at 0.9, so a pace from the writing said 2.7 s for a
 * run that took 1.9. The expectation keeps some weight early on (see `expectationWeight`), so
 * the first file does not swing the figure. Without one (a run picked up
 * after a reload), the pace of the phase going on, or the run's average before that is known.
 */
export function secondsLeft(
  run: LiveRun,
  elapsed = run.seconds,
  soFar: ExpectedSoFar | null = null,
): number | null {
  const seconds = Math.max(run.seconds, elapsed);
  if (run.status !== 'running' || run.phase === 'recovery') return null;
  if (!run.totalBytes || run.bytesDone <= 0 || seconds <= 0) return null;
  if (soFar) {
    const { rates } = soFar.expected;
    const work = Math.max(soFar.expected.seconds - rates.runSeconds, 0.001);
    const done = Math.min(expectedSecondsDone(run, rates), work);
    const weight = expectationWeight[soFar.expected.measured ? 'measured' : 'guess'];
    const share = done / work;
    const taken = Math.max(0, soFar.working);
    const pace = done > 0 && taken > 0 ? (taken / done) ** (share / (share + weight)) : 1;
    // The run's fixed part is half before its first byte (over by now), half after its last (the
    // analysis and saving): on a machine that runs the files faster than expected, that too.
    return (work - done + rates.runSeconds / 2) * pace;
  }
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
