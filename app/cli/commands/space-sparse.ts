import { lstat } from 'node:fs/promises';
import type { SparseFile } from '../../contract/space.js';
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

/** `plumb space sparse PATH [--punch] [--create SIZE] [--copy-to DEST] [--json]` */
export async function sparseSubcommand(args: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      punch: { type: 'boolean' },
      create: { type: 'string' },
      'copy-to': { type: 'string' },
      candidates: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    'space sparse',
  );
  if (values.help) {
    io.stdout.write(
      'Usage: plumb space sparse PATH [--punch] [--create SIZE] [--copy-to DEST] [--candidates] [--json]\n',
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
  const target = positionals[0]!;
  const print = (value: unknown, text: string) =>
    io.stdout.write(values.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);

  if (values.create !== undefined) {
    const file = await createSparse(target, sizeArgument(values.create));
    print(file, `created ${describe(file)}`);
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
    const report = await punchZeros(target, true);
    print(
      report,
      `${printableLine(report.path)}: ${formatBytes(report.zeroBytes)} of zero blocks made into holes; allocated ` +
        `${formatBytes(report.allocatedBefore)} → ${formatBytes(report.allocatedAfter)}.\nNote: ${punchWarning}`,
    );
    return exitCode.ok;
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
