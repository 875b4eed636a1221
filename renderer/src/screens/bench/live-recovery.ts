/**
 * Where a sustained run's recovery stands, for the live view: resting the disk (with the rest's
 * own time left) or writing a probe (with its own share done). How many probes run depends on
 * when the rate is back, so the recovery has no share of the whole run: it is shown as its steps.
 */
import { formatBytes, formatDuration } from '../../../../app/common/format.js';
import type { LiveRun } from './live-run.js';

export interface RecoveryStep {
  kind: 'rest' | 'probe';
  /** "Resting the disk: 18 s left, then probe 2 of at most 20" */
  text: string;
  /** Share of this step done, 0…1 (never all of it while it goes on). */
  fraction: number;
  /** Seconds left of a rest; null for a probe (it ends on its bytes). */
  secondsLeft: number | null;
}

/** A step going on is never shown done: its end is the next event. */
const mostWhileGoing = 0.99;

/** The recovery step going on at `elapsed` (the viewer's clock), or null outside the recovery. */
export function recoveryStep(live: LiveRun, elapsed = live.seconds): RecoveryStep | null {
  const wait = live.recoveryWait;
  if (live.status !== 'running' || live.phase !== 'recovery' || !wait) return null;
  const probe = `probe ${wait.probe + 1} of at most ${wait.maxProbes}`;
  const restedSeconds = Math.max(live.seconds, elapsed) - wait.atSeconds;
  const probeBytes = live.bytesDone - wait.bytesBefore;
  if (restedSeconds < wait.seconds && probeBytes <= 0) {
    const left = wait.seconds - restedSeconds;
    return {
      kind: 'rest',
      text: `Resting the disk so its cache can empty: ${formatDuration(left)} left, then ${probe}`,
      fraction: Math.min(mostWhileGoing, restedSeconds / wait.seconds),
      secondsLeft: left,
    };
  }
  return {
    kind: 'probe',
    text: `Writing ${probe} (${formatBytes(wait.probeBytes)}) to see if the rate is back`,
    fraction: Math.min(mostWhileGoing, Math.max(0, probeBytes) / wait.probeBytes),
    secondsLeft: null,
  };
}
