import { setFlagsFromString } from 'node:v8';
import type {
  DedupeAction,
  DedupeMethod,
  DedupeReport,
  ScanOptions,
  ScanProgress,
  ScanResult,
} from '../../contract/space.js';
import { dedupeGroups } from '../../core/space/dedupe.js';
import {
  scanFolder,
  scanFolderJson,
  scanFolderSummary,
  widenPipe,
  type ScanHooks,
  type ScanSummary,
} from '../../core/space/scan.js';
import { recoverOnce } from '../../core/space/service.js';
import { formatBytes } from '../../common/format.js';
import { cancelledLine, cliApplyJob } from '../apply-job.js';
import { parseCommandArgs } from '../args.js';
import { printableLine } from '../printable.js';
import { writeJson, writePieces } from '../../core/json-out.js';
import { exitCode, UsageError, type Command, type CommandIO, sizeArgument } from '../command.js';
import { sparseSubcommand } from './space-sparse.js';

const usage = [
  'plumb space scan DIR [--json]                 duplicates, clones already shared, sparse files',
  'plumb space dedupe DIR [--apply] [--json]     dry run unless --apply',
  'plumb space trash DIR [--apply] [--json]      move the copies to the Trash (dry run unless --apply)',
  'plumb space trash --empty BATCH [--apply]     then delete exactly those files from the Trash',
  'plumb space sparse PATH [--punch [--apply]] [--create SIZE] [--copy-to DEST] [--candidates]',
  '',
  'Scan options: --min-size SIZE (default 1 B), --no-hidden, --all (do not skip packages,',
  'Library and cloud folders). Dedupe: --method dedupe-range|clone-rename (default: the OS).',
].join('\n');

const unknown = 'unknown';

function bytesOrUnknown(bytes: number | null): string {
  return bytes === null ? unknown : formatBytes(bytes);
}

/** One self-overwriting status line on a terminal; nothing when output goes to a file or pipe. */
function progressPrinter(io: CommandIO): (p: ScanProgress) => void {
  if (!io.stderr.isTTY) return () => undefined;
  return (p) => {
    const left = p.secondsLeft === null ? '' : `, ${Math.ceil(p.secondsLeft)} s left`;
    const line =
      p.phase === 'walk'
        ? `walking: ${p.files} files, ${formatBytes(p.bytes)}`
        : p.phase === 'hash'
          ? `hashing: ${formatBytes(p.bytesHashed)} of ${formatBytes(p.bytesToHash)}${left}`
          : p.phase === 'done'
            ? ''
            : `${p.phase}…`;
    io.stderr.write(`\r\x1b[K${line}`);
  };
}

const scanFlags = {
  json: { type: 'boolean' },
  'min-size': { type: 'string' },
  'no-hidden': { type: 'boolean' },
  all: { type: 'boolean' },
} as const;

type ScanValues = { 'min-size'?: string; 'no-hidden'?: boolean; all?: boolean };

function scanOptions(dir: string, values: ScanValues): ScanOptions {
  return {
    path: dir,
    minBytes: values['min-size'] === undefined ? 1 : Math.max(1, sizeArgument(values['min-size'])),
    includeHidden: !values['no-hidden'],
    skipPackages: !values.all,
    skipCloudFolders: !values.all,
  };
}

function scanHooks(io: CommandIO): ScanHooks {
  return { scansDir: io.folders.spaceScans, signal: io.signal, onProgress: progressPrinter(io) };
}

async function runScan(dir: string, values: ScanValues, io: CommandIO): Promise<ScanResult> {
  return scanFolder(scanOptions(dir, values), scanHooks(io));
}

/** Groups `plumb space scan` lists (--json lists all). */
const groupsListed = 20;

function printScan(result: ScanSummary, io: CommandIO): void {
  const out = (line = '') => io.stdout.write(`${printableLine(line)}\n`);
  out(
    `Scanned ${result.root} (${result.fsType ?? 'unknown file system'}): ${result.files} files, ` +
      `${formatBytes(result.bytes)} in ${result.seconds.toFixed(1)} s`,
  );
  const t = result.totals;
  out(`Duplicate groups: ${result.groupCount}`);
  out(
    `  Nominal duplicates  ${formatBytes(t.nominalBytes).padStart(9)}  what summing the copies' sizes claims`,
  );
  out(
    `  Already shared      ${bytesOrUnknown(t.sharedBytes).padStart(9)}  stored once already (clones): nothing to gain`,
  );
  out(
    `  Reclaimable         ${bytesOrUnknown(t.reclaimableBytes).padStart(9)}  what turning copies into clones would free`,
  );
  if (t.unknownGroups > 0) {
    out(
      `  (${t.unknownGroups} groups: this file system does not say what is shared; measured when applied)`,
    );
  }
  if (result.sharingSupported === false) {
    out('  This file system cannot share storage between files, so cloning frees nothing here.');
  }
  const shown = result.largestGroups;
  if (shown.length > 0) out('Largest groups:');
  for (const group of shown) {
    out(
      `  ${bytesOrUnknown(group.reclaimableBytes).padStart(9)} reclaimable  ${group.files.length} × ` +
        `${formatBytes(group.size)}  ${group.keeper}`,
    );
    for (const file of group.files) if (file.path !== group.keeper) out(`      = ${file.path}`);
  }
  if (result.groupCount > shown.length)
    out(`  … and ${result.groupCount - shown.length} more groups (--json lists all)`);
  const s = result.skipped;
  out(
    `Skipped: ${s.symlinks} symbolic links, ${s.otherVolumes} on other volumes, ${s.extraHardLinks} extra hard links, ` +
      `${s.excluded} excluded, ${s.special} special, ${s.unreadable} unreadable`,
  );
  out(
    `Sparse files: ${result.sparse.files} (${formatBytes(result.sparse.logicalBytes)} logical, ` +
      `${formatBytes(result.sparse.allocatedBytes)} allocated)`,
  );
}

function actionLine(action: DedupeAction, dryRun: boolean): string {
  const freed = bytesOrUnknown(action.predictedBytes);
  switch (action.status) {
    case 'planned':
      return `would clone  ${action.target}  from  ${action.keeper}  (frees ${freed})`;
    case 'done':
      return `cloned       ${action.target}  from  ${action.keeper}  (frees ${freed})`;
    case 'skipped':
      return `skip         ${action.target}: ${action.reason ?? ''}`;
    case 'failed':
      return `FAILED       ${action.target}: ${action.reason ?? ''}${dryRun ? '' : ' — the file is unchanged'}`;
  }
}

/** Prints the summary; `streamed` actions were already printed as they happened. */
function printDedupe(report: DedupeReport, io: CommandIO, streamed: Set<DedupeAction>): void {
  const out = (line = '') => io.stdout.write(`${printableLine(line)}\n`);
  for (const action of report.actions)
    if (!streamed.has(action)) out(actionLine(action, report.dryRun));
  const c = report.counts;
  if (report.dryRun) {
    out(
      `Dry run (${report.method}): ${c.planned} copies would become clones of their keeper, freeing ` +
        `${bytesOrUnknown(report.predictedBytes)}; ${c.skipped} skipped. Nothing was changed; run again with --apply to do it.`,
    );
    return;
  }
  out(
    `Applied (${report.method}): ${c.done} copies now share storage, ${c.skipped} skipped, ${c.failed} failed. ` +
      `Predicted ${bytesOrUnknown(report.predictedBytes)}, measured ${bytesOrUnknown(report.measuredFreedBytes)} freed on the volume.`,
  );
}

function method(value: string | undefined): DedupeMethod | undefined {
  if (value === undefined) return undefined;
  if (value === 'dedupe-range' || value === 'clone-rename') return value;
  throw new UsageError(`Unknown method "${value}": use dedupe-range or clone-rename.`);
}

async function printRecovery(io: CommandIO): Promise<void> {
  for (const step of await recoverOnce(io.folders.spaceJournal)) {
    io.stderr.write(
      `${printableLine(`recovered an interrupted dedupe: ${step.target}: ${step.outcome} (${step.detail})`)}\n`,
    );
  }
}

/**
 * A scan's objects (one per file found, one per duplicate) mostly live until the scan ends; V8
 * answers that by growing its young generation up to 16 MB per semi-space, about 20 MB of peak
 * memory that this one-shot command does not need (bench:space: the same time, 20 MB less).
 */
function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

export const spaceCommand: Command = {
  name: 'space',
  usage,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === undefined || sub === '--help' || sub === '-h') {
      io.stdout.write(`Usage:\n${usage}\n`);
      return sub === undefined ? exitCode.usage : exitCode.ok;
    }
    if (sub === 'sparse') return sparseSubcommand(rest, io);
    if (sub !== 'scan' && sub !== 'dedupe' && sub !== 'trash') {
      throw new UsageError(`Unknown sub-command "${sub}": use scan, dedupe, trash or sparse.`);
    }
    const { values, positionals } = parseCommandArgs(
      rest,
      {
        ...scanFlags,
        apply: { type: 'boolean' },
        method: { type: 'string' },
        empty: { type: 'string' },
      },
      `space ${sub}`,
    );
    if (values.help) {
      io.stdout.write(`Usage:\n${usage}\n`);
      return exitCode.ok;
    }
    const empty = values.empty;
    if (empty !== undefined && sub !== 'trash') {
      throw new UsageError('--empty belongs to `plumb space trash`.');
    }
    if (empty !== undefined) {
      if (positionals.length !== 0) {
        throw new UsageError(
          '--empty takes a batch id, not a folder: plumb space trash --empty BATCH',
        );
      }
      return (await import('./space-trash.js')).emptyTrashCommand(empty, values, io);
    }
    if (positionals.length !== 1) throw new UsageError(`Give one folder: plumb space ${sub} DIR`);
    if (sub === 'scan' && (values.apply || values.method)) {
      throw new UsageError('--apply and --method belong to `plumb space dedupe`.');
    }
    if (sub === 'trash' && values.method) {
      throw new UsageError('--method belongs to `plumb space dedupe`.');
    }
    const chosen = method(values.method);
    keepYoungGenerationSmall();
    await printRecovery(io);
    if (sub === 'scan' && values.json) {
      // The addon writes the text itself: no JS object per file (scanFolderJson).
      const pieces = await scanFolderJson(scanOptions(positionals[0]!, values), scanHooks(io));
      if (io.stderr.isTTY) io.stderr.write('\r\x1b[K');
      const { fd } = io.stdout as { fd?: unknown };
      if (typeof fd === 'number') widenPipe(fd);
      await writePieces(io.stdout, pieces);
      await writePieces(io.stdout, ['\n']);
      return exitCode.ok;
    }
    if (sub === 'scan') {
      const summary = await scanFolderSummary(
        scanOptions(positionals[0]!, values),
        scanHooks(io),
        groupsListed,
      );
      if (io.stderr.isTTY) io.stderr.write('\r\x1b[K');
      printScan(summary, io);
      return exitCode.ok;
    }
    const result = await runScan(positionals[0]!, values, io);
    if (io.stderr.isTTY) io.stderr.write('\r\x1b[K');
    if (sub === 'trash') return (await import('./space-trash.js')).trashCommand(result, values, io);
    // Applied actions are printed as each file is done, so an interrupted run shows how far it got.
    const { report, cancelled, streamed } = await cliApplyJob(
      'dedupe',
      io,
      values.json ? null : (action: DedupeAction) => actionLine(action, false),
      (hooks) =>
        dedupeGroups(result.groups, {
          apply: values.apply === true,
          method: chosen,
          sharingSupported: result.sharingSupported,
          journalDir: io.folders.spaceJournal,
          ...hooks,
        }),
    );
    if (values.json) {
      await writeJson(io.stdout, { scan: result, dedupe: report }, 3);
    } else {
      printDedupe(report, io, streamed);
    }
    if (cancelled) {
      io.stderr.write(`${cancelledLine(report.actions, 'done', 'became clones')}\n`);
      return exitCode.cancelled;
    }
    return report.counts.failed > 0 ? exitCode.failed : exitCode.ok;
  },
};
