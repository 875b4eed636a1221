/**
 * A dedupe, Trash or Trash-emptying apply of the CLI as a job of the process's registry: Ctrl-C (the command's
 * signal) stops it between files, a terminal shows its progress on stderr, and a stopped apply
 * ends with one line saying what was done and what was not.
 */
import { randomUUID } from 'node:crypto';
import { formatBytes } from '../common/format.js';
import type { JobKind } from '../contract/jobs.js';
import type { ApplyEachOptions, ApplyProgress } from '../core/space/apply-steps.js';
import { jobs } from '../core/jobs/service.js';
import type { CommandIO } from './command.js';
import { printableLine } from './printable.js';

type ApplyHooks<A> = Pick<ApplyEachOptions<A>, 'signal' | 'onProgress' | 'onAction'>;

export interface CliApply<T, A> {
  report: T;
  cancelled: boolean;
  /** The actions already printed as they ended (the summary leaves them out). */
  streamed: Set<A>;
}

/**
 * Runs `apply` as a job; with `line`, each file's outcome is printed on stdout as it ends (the
 * progress line cleared first, so the two never mix).
 */
export async function cliApplyJob<T, A>(
  kind: JobKind,
  io: CommandIO,
  line: ((action: A) => string) | null,
  apply: (hooks: ApplyHooks<A>) => Promise<T>,
): Promise<CliApply<T, A>> {
  const tty = io.stderr.isTTY === true;
  let shown = false;
  const clear = () => {
    if (shown) io.stderr.write('\r\x1b[K');
    shown = false;
  };
  const streamed = new Set<A>();
  const onAction = line
    ? (action: A) => {
        clear();
        streamed.add(action);
        io.stdout.write(`${printableLine(line(action))}\n`);
      }
    : undefined;
  const onProgress = (p: ApplyProgress) => {
    if (!tty || p.total === 0) return;
    io.stderr.write(
      `\r\x1b[K${p.done} of ${p.total} files, ${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}`,
    );
    shown = true;
  };
  let cancelled = false;
  const report = await jobs.run({ jobId: randomUUID(), kind, signal: io.signal }, async (job) => {
    const result = await apply({ signal: job.signal, onProgress, onAction });
    cancelled = job.signal.aborted;
    return result;
  });
  clear();
  return { report, cancelled, streamed };
}

/** The line a stopped apply ends with: how many files were done, and how many were left alone. */
export function cancelledLine(
  actions: readonly { status: string; code?: string | null }[],
  doneStatus: string,
  doneWords: string,
): string {
  const done = actions.filter((a) => a.status === doneStatus).length;
  const untouched = actions.filter((a) => a.code === 'ECANCELED').length;
  return `Cancelled: ${done} files ${doneWords} before the stop; ${untouched} not touched. Every file is whole.`;
}
