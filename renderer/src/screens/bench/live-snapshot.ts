/**
 * A run picked up from `bench.running` (after a reload, or from another window): the state it
 * stood in, to follow on from with the events that come after.
 */
import type { RunningBench } from '../../../../app/contract/bench.js';
import type { Finding } from '../../../../app/contract/bench-result.js';
import {
  applyBenchEvent,
  fileDone,
  newLiveRun,
  withFinding,
  workWithFile,
  type LiveRun,
} from './live-run.js';

/** A run going on elsewhere (or before a reload), as `bench.running` reports it, to follow on. */
export function liveRunFromSnapshot(snapshot: RunningBench): LiveRun {
  let run: LiveRun = {
    ...newLiveRun(snapshot.runId, snapshot.planName, snapshot.target),
    phase: snapshot.phase,
    plannedFiles: snapshot.plannedFiles,
    notices: [...snapshot.notices],
    findings: snapshot.findings.reduce<Finding[]>(withFinding, []),
  };
  // Replaying the samples rebuilds the rate-over-time points and the queue-depth runs.
  for (const sample of snapshot.samples) {
    run = applyBenchEvent(run, {
      type: 'sample',
      runId: snapshot.runId,
      phase: sample.phase,
      bytesDone: 0,
      totalBytes: null,
      seconds: sample.seconds,
      bytesPerSecond: sample.bytesPerSecond,
      ...(sample.run === undefined ? {} : { run: sample.run }),
    });
  }
  run.files.push(...snapshot.files);
  let rates = run.rates;
  let work = run.work;
  for (const file of snapshot.files) {
    rates = fileDone(rates, file);
    work = workWithFile(work, file);
  }
  return {
    ...run,
    rates,
    work,
    filesDone: snapshot.filesDone,
    fileBytesDone: snapshot.fileBytesDone,
    bytesDone: snapshot.bytesDone,
    totalBytes: snapshot.totalBytes,
    seconds: snapshot.seconds,
    currentRate: snapshot.currentRate,
    recoveryWait: snapshot.recoveryWait
      ? { ...snapshot.recoveryWait, bytesBefore: snapshot.bytesDone }
      : null,
    // The phase's start is not in the snapshot: its pace is counted from here.
    phaseStart: { seconds: snapshot.seconds, bytes: snapshot.bytesDone },
    version: run.version + 1,
  };
}
