/**
 * `--verify`: proves the capacity in the same pass. While a run writes, every 4 KiB block gets a
 * stamp (which file, which offset; native/src/engine/stamp.h); after it, every file still held is
 * read back uncached and each block checked, so a drive that loses, wraps or repeats data (fake-
 * capacity sticks, failing drives) is caught with the first bad place and how many bytes are bad.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import type { VerifySection } from '../../contract/bench-result.js';
import { PlumbError } from '../../contract/errors.js';
import { capacityVerdict } from '../../common/capacity-check.js';
import { formatBytes } from '../../common/format.js';
import type { RunContext } from './run-context.js';

/** A file written with stamps: its id is its place in the list; runOffset: bytes of the run before it. */
interface StampedFile {
  path: string;
  bytes: number;
  runOffset: number;
}

/** The files a run stamped, in the order written, and the run's tag (so an earlier run's data is told apart). */
export class StampLedger {
  readonly runTag = randomInt(0, 2 ** 32);
  readonly files: StampedFile[] = [];
  private written = 0;

  /** The stamp for the next file written. */
  stamp(file: string, bytes: number): { fileId: number; runTag: number } {
    this.files.push({ path: file, bytes, runOffset: this.written });
    this.written += bytes;
    return { fileId: this.files.length - 1, runTag: this.runTag };
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** How the check is shown and said. */
export interface VerifyOptions {
  /**
   * The check is the run's read phase (the capacity plan): announced as one, with its rate in
   * the progress; otherwise it follows the run's own phases with a notice.
   */
  readPhase?: boolean;
  /** A capacity plan: the space that could be filled, for the verdict leading the message to say how much of it was checked. */
  capacity?: { allowanceBytes: number };
}

/** Reads back every stamped file the run still holds and checks every block. */
export async function verifyWritten(
  context: RunContext,
  ledger: StampLedger,
  options: VerifyOptions = {},
): Promise<VerifySection> {
  const { io } = context;
  if (!io.verify)
    throw new PlumbError('ENOTSUP', 'This build cannot verify; run again without --verify.');
  const present: { file: StampedFile; fileId: number }[] = [];
  for (const [fileId, file] of ledger.files.entries())
    if (await exists(file.path)) present.push({ file, fileId });
  const total = present.reduce((sum, p) => sum + p.file.bytes, 0);
  if (options.readPhase) context.emit({ type: 'phase-started', phase: 'read' });
  else
    context.emit({
      type: 'notice',
      message: `Verifying: reading back ${present.length} files (${formatBytes(total)}) uncached and checking every 4 KiB block.`,
    });
  // Progress continues from the bytes the run moved, over a total that now includes the check.
  const base = context.files.reduce((sum, f) => sum + f.bytes, 0);
  const start = io.now();
  let bytesChecked = 0;
  let badBytes = 0;
  let firstBad: VerifySection['firstBad'] = null;
  for (const { file, fileId } of present) {
    context.checkCancelled();
    const before = bytesChecked;
    const fileStart = io.now();
    let fileBytesDone = 0;
    const result = await io
      .verify(
        file.path,
        { fileId, runTag: ledger.runTag },
        {
          buffered: context.options.buffered,
          signal: context.options.signal,
          onProgress: (bytesDone, seconds) => {
            fileBytesDone = bytesDone;
            // The rate of the check so far: the live curve places it at the phase's own seconds.
            const phaseSeconds = fileStart - start + seconds;
            context.emit({
              type: 'sample',
              phase: 'read',
              bytesDone: base + before + bytesDone,
              totalBytes: base + total,
              seconds: context.elapsed(),
              bytesPerSecond:
                options.readPhase && phaseSeconds > 0 ? (before + bytesDone) / phaseSeconds : null,
            });
          },
        },
      )
      .catch((error: unknown) => {
        // A read the drive answers with an error is a finding, not the end of the check: the rest
        // of the file counts as lost, from the last block known read, and the next file is read.
        if (!unreadable(error)) throw error;
        return unreadableRest(file.bytes, fileBytesDone);
      });
    bytesChecked += result.checkedBytes;
    badBytes += result.badBytes;
    if (firstBad || result.firstBadOffset === null || !result.firstBadFound) continue;
    const found = result.firstBadFound;
    const source = found.fileId === null ? undefined : ledger.files[found.fileId];
    firstBad = {
      file: path.basename(file.path),
      offset: result.firstBadOffset,
      runOffset: file.runOffset + result.firstBadOffset,
      found: {
        kind: found.kind,
        file: found.sameRun && source ? path.basename(source.path) : null,
        offset: found.offset,
        runOffset:
          found.sameRun && source && found.offset !== null ? source.runOffset + found.offset : null,
        sameRun: found.sameRun,
      },
    };
  }
  const section = {
    files: present.length,
    filesNotChecked: ledger.files.length - present.length,
    bytesChecked,
    badBytes,
    firstBad,
    verdict: badBytes === 0 ? ('passed' as const) : ('failed' as const),
    seconds: io.now() - start,
  };
  // Every check leads with what it proved (issue 23): "Capacity checked: 4.70 GB written and read
  // back intact."; a capacity plan's also with how much of the space that was.
  const verdict = capacityVerdict(section, options.capacity?.allowanceBytes);
  return { ...section, message: `${verdict} ${verifyMessage(section)}` };
}

/** Errors with which a drive refuses to return written data (rather than a cancel or a bug). */
const unreadableCodes = new Set(['EIO', 'EBADMSG', 'ENODATA', 'EREMOTEIO']);

function unreadable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && unreadableCodes.has(code);
}

/** A file whose read failed after `bytesDone` bytes: the rest counted as bad, unreadable. */
function unreadableRest(bytes: number, bytesDone: number) {
  const from = Math.min(bytes, Math.floor(bytesDone / 4096) * 4096);
  return {
    checkedBytes: bytes,
    badBytes: bytes - from,
    firstBadOffset: from,
    firstBadFound: { kind: 'unreadable' as const, fileId: null, offset: null, sameRun: false },
  };
}

/** The verify finding in words. */
export function verifyMessage(section: Omit<VerifySection, 'message'>): string {
  const skipped =
    section.filesNotChecked > 0
      ? ` ${section.filesNotChecked} files rotated out during the run could not be checked.`
      : '';
  if (!section.firstBad)
    return `Every byte written was read back as written: ${formatBytes(section.bytesChecked)} in ${section.files} files, checked in 4 KiB blocks.${skipped}`;
  const { file, offset, runOffset, found } = section.firstBad;
  const where = `from ${file} at ${formatBytes(offset)} (${formatBytes(runOffset)} into the run) on`;
  const bad = `${formatBytes(section.badBytes)} of ${formatBytes(section.bytesChecked)} read back were wrong.`;
  if (found.kind === 'other-block') {
    if (!found.sameRun || found.runOffset === null)
      return `Data written was not read back: ${where}, the drive returned data of an earlier run. ${bad}${skipped}`;
    const other = `${found.file} at ${formatBytes(found.offset ?? 0)}, ${formatBytes(found.runOffset)} into the run`;
    return found.runOffset > runOffset
      ? `Data written was not kept: ${where}, the drive returned data written later to another place (${other}) — the drive has less room than it claims and stored new data over old, as fake-capacity drives do. ${bad}${skipped}`
      : `Data written was not read back: ${where}, the drive returned data written earlier (${other}) — this is how fake-capacity drives fail. ${bad}${skipped}`;
  }
  if (found.kind === 'unreadable')
    return `Data written could not be read back: ${where}, the drive answered with read errors — a failing or fake-capacity drive. ${bad}${skipped}`;
  if (found.kind === 'zeros')
    return `Data written was lost: ${where}, the drive returned zeros — a fake-capacity or failing drive. ${bad}${skipped}`;
  return `Data written came back changed: ${where}, blocks differ from what was written — a failing drive, cable or memory. ${bad}${skipped}`;
}
