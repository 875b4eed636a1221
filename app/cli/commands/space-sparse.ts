import { randomUUID } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { toErrorPayload } from '../../contract/errors.js';
import type { PunchReport, SparseFile } from '../../contract/space.js';
import { jobs } from '../../core/jobs/service.js';
import { copySparse } from '../../core/space/sparse-copy.js';
import {
  createSparse,
  listSparse,
  punchWarning,
  punchZeros,
  type SparseListHooks,
} from '../../core/space/sparse.js';
import { formatBytes } from '../../common/format.js';
import { sparseCandidates } from '../../core/space/sparse-candidates.js';
import { parseCommandArgs } from '../args.js';
import { exitCode, UsageError, type CommandIO, sizeArgument } from '../command.js';
import { printableLine } from '../printable.js';

function describe(file: SparseFile): string {
  const holes = file.logicalBytes - file.data.reduce((sum, r) => sum + r.length, 0);
  return (
    `${printableLine(file.path)}: ${formatBytes(file.logicalBytes)} logical, ${formatBytes(file.allocatedBytes)} allocated, ` +
    `${file.data.length} data ranges, ${formatBytes(Math.max(0, holes))} in holes` +
    (file.holesSupported ? '' : ' (this file system does not report holes)')
  );
}

/** The self-overwriting status line of a listing on a terminal; nothing when stderr is not one. */
function progressPrinter(io: CommandIO): SparseListHooks['onProgress'] {
  if (!io.stderr.isTTY) return undefined;
  return (p) => {
    const left = p.secondsLeft === null ? '' : `, ${Math.ceil(p.secondsLeft)} s left`;
    const line =
      p.phase === 'walk'
        ? `walking: ${p.files} files, ${formatBytes(p.bytes)}`
        : p.phase === 'read'
          ? `reading large files for zeros: ${p.described} of ${p.sparseFiles}${left}`
          : `reading maps: ${p.described} of ${p.sparseFiles} sparse files${left}`;
    io.stderr.write(`\r\x1b[K${line}`);
  };
}

/** What a punch did or would do, in words. */
function punchText(report: PunchReport): string {
  const zeros = formatBytes(report.zeroBytes);
  if (report.dryRun) {
    return (
      `${printableLine(report.path)}: ${zeros} of zero blocks would become holes (it takes ${formatBytes(report.allocatedBefore)} now). ` +
      `Nothing was changed; run again with --apply to punch them.`
    );
  }
  const done =
    `${printableLine(report.path)}: ${formatBytes(report.punchedBytes)} of ${zeros} of zero blocks made into holes; allocated ` +
    `${formatBytes(report.allocatedBefore)} → ${formatBytes(report.allocatedAfter)}. Its content and times are as they were.`;
  return report.stopped ? `${done}\nStopped: ${report.stopped}.` : done;
}

/** `plumb space sparse PATH [--punch [--apply]] [--create SIZE] [--copy-to DEST] [--json]` */
export async function sparseSubcommand(args: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      punch: { type: 'boolean' },
      apply: { type: 'boolean' },
      create: { type: 'string' },
      'copy-to': { type: 'string' },
      candidates: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    'space sparse',
  );
  if (values.help) {
    io.stdout.write(
      'Usage: plumb space sparse PATH [--punch [--apply]] [--create SIZE] [--copy-to DEST] [--candidates] [--json]\n' +
        '  --punch          what making the zero blocks of file PATH holes would free (a dry run)\n' +
        '  --punch --apply  make them holes: the content and times stay as they were\n',
    );
    return exitCode.ok;
  }
  if (positionals.length !== 1) throw new UsageError('Give one path: plumb space sparse PATH');
  const chosen = [
    values.punch,
    values.create !== undefined,
    values['copy-to'] !== undefined,
    values.candidates,
  ];
  if (chosen.filter(Boolean).length > 1) {
    throw new UsageError('Use one of --punch, --create, --copy-to and --candidates at a time.');
  }
  if (values.apply && !values.punch) {
    throw new UsageError('--apply goes with --punch: plumb space sparse FILE --punch --apply');
  }
  const target = positionals[0]!;
  const print = (value: unknown, text: string) =>
    io.stdout.write(values.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);

  if (values.create !== undefined) {
    const file = await createSparse(target, sizeArgument(values.create));
    print(file, `created ${describe(file)}${file.warning ? `\nNote: ${file.warning}` : ''}`);
    return exitCode.ok;
  }
  if (values['copy-to'] !== undefined) {
    const file = await copySparse(target, values['copy-to'], { signal: io.signal });
    print(file, `copied with holes kept: ${describe(file)}`);
    return exitCode.ok;
  }
  if (values.candidates) {
    const found = await sparseCandidates(target, {
      signal: io.signal,
      onProgress: progressPrinter(io),
    });
    if (io.stderr.isTTY) io.stderr.write('\r\x1b[K');
    const lines = found.candidates.map(
      (c) =>
        `${printableLine(c.path)}: punching its zero blocks would free ${formatBytes(c.zeroBytes)} of ${formatBytes(c.allocatedBytes)} allocated`,
    );
    print(
      found,
      `${lines.length ? lines.join('\n') : `No file of 64 MB or more under ${printableLine(target)} holds 1 MB of zero blocks.`}\nNote: ${found.warning}`,
    );
    return exitCode.ok;
  }
  if (values.punch) {
    if (!(await lstat(target)).isFile())
      throw new UsageError('--punch works on one file, not a folder.');
    const tty = io.stderr.isTTY === true;
    const clear = () => (tty ? io.stderr.write('\r\x1b[K') : undefined);
    let report: PunchReport;
    try {
      report = await jobs.run({ jobId: randomUUID(), kind: 'punch', signal: io.signal }, (job) =>
        punchZeros(target, values.apply === true, {
          signal: job.signal,
          onRead: tty
            ? (done, total) =>
                io.stderr.write(
                  `\r\x1b[Kreading for zeros: ${formatBytes(done)} of ${formatBytes(total)}`,
                )
            : undefined,
        }),
      );
    } catch (error) {
      clear();
      if (!io.signal.aborted || toErrorPayload(error).code !== 'ECANCELED') throw error;
      io.stderr.write(`Cancelled: ${toErrorPayload(error).message}\n`);
      return exitCode.cancelled;
    }
    clear();
    print(report, `${punchText(report)}\nNote: ${punchWarning}`);
    return report.stopped ? exitCode.failed : exitCode.ok;
  }
  const files = await listSparse(target, { signal: io.signal, onProgress: progressPrinter(io) });
  if (io.stderr.isTTY) io.stderr.write('\r\x1b[K');
  if (values.json) {
    io.stdout.write(`${JSON.stringify(files, null, 2)}\n`);
  } else if (files.length === 0) {
    io.stdout.write(`No sparse files under ${printableLine(target)}.\n`);
  } else {
    for (const file of files) io.stdout.write(`${describe(file)}\n`);
  }
  return exitCode.ok;
}
