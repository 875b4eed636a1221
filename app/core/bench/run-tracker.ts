/**
 * What a run has reported so far, folded from its events, so `bench.running` can hand a reloaded
 * page the run as it stands. Recent files and samples only: enough to redraw the charts.
 */
import type { RunningBench } from '../../contract/bench.js';
import type { BenchEvent } from '../../contract/bench-events.js';
import type { Plan } from '../../contract/plan.js';

/** Files and samples kept per run (a 10,000-file run keeps its latest 5,000 points). */
const keptFiles = 5000;
const keptSamples = 2000;

function keepLast<T>(items: T[], limit: number): void {
  if (items.length > limit * 1.25) items.splice(0, items.length - limit);
}

export class RunTracker {
  private readonly state: RunningBench;
  private readonly startedMs = Date.now();

  constructor(start: {
    runId: string;
    jobId: string;
    plan: Plan | null;
    planName: string;
    target: string;
    request: RunningBench['request'];
  }) {
    this.state = {
      ...start,
      startedAt: new Date(this.startedMs).toISOString(),
      phase: 'starting',
      plannedFiles: null,
      filesDone: 0,
      fileBytesDone: 0,
      bytesDone: 0,
      totalBytes: null,
      seconds: 0,
      currentRate: null,
      files: [],
      samples: [],
      findings: [],
      notices: [],
      recoveryWait: null,
    };
  }

  apply(event: BenchEvent): void {
    const state = this.state;
    switch (event.type) {
      case 'plan-started':
        state.planName = event.plan;
        state.target = event.target;
        state.plannedFiles = event.files;
        state.totalBytes = event.bytes;
        return;
      case 'phase-started':
        state.phase = event.phase;
        state.currentRate = null;
        state.recoveryWait = null;
        return;
      case 'wait': {
        const { type: _type, runId: _runId, ...wait } = event;
        state.recoveryWait = wait;
        return;
      }
      case 'file-done':
        state.files.push(event.file);
        keepLast(state.files, keptFiles);
        state.filesDone += 1;
        state.fileBytesDone += event.file.bytes;
        state.bytesDone = Math.max(state.bytesDone, state.fileBytesDone);
        state.currentRate = event.rate ?? state.currentRate;
        return;
      case 'sample':
        state.currentRate = event.bytesPerSecond;
        if (event.phase !== 'queue') {
          state.seconds = event.seconds;
          state.bytesDone = Math.max(event.bytesDone, state.fileBytesDone);
          if (event.totalBytes !== null) state.totalBytes = event.totalBytes;
        }
        if (event.bytesPerSecond !== null) {
          state.samples.push({
            phase: event.phase,
            seconds: event.seconds,
            bytesPerSecond: event.bytesPerSecond,
            ...(event.run === undefined ? {} : { run: event.run }),
          });
          keepLast(state.samples, keptSamples);
        }
        return;
      case 'finding':
        state.findings.push(event.finding);
        return;
      case 'notice':
        state.notices.push(event.message);
        return;
      default:
        return;
    }
  }

  /** How far the run has got, without copying its files and samples (for job progress). */
  figures(): Pick<
    RunningBench,
    'phase' | 'filesDone' | 'plannedFiles' | 'bytesDone' | 'totalBytes'
  > {
    const { phase, filesDone, plannedFiles, bytesDone, totalBytes } = this.state;
    return { phase, filesDone, plannedFiles, bytesDone, totalBytes };
  }

  /** The run as it stands (a copy: later events do not change it). */
  snapshot(): RunningBench {
    const state = this.state;
    return {
      ...state,
      // Small files finish between progress samples: the clock says how long it has run.
      seconds: Math.max(state.seconds, (Date.now() - this.startedMs) / 1000),
      files: state.files.slice(-keptFiles),
      samples: state.samples.slice(-keptSamples),
      findings: [...state.findings],
      notices: [...state.notices],
      recoveryWait: state.recoveryWait ? { ...state.recoveryWait } : null,
    };
  }
}
