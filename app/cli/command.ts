import { parseSize } from '../common/units.js';
import { PlumbError } from '../contract/errors.js';
import type { AppContext } from '../core/context.js';
import type { PlumbFolders } from '../core/paths.js';

/** A `plumb` sub-command: parses its own arguments and returns an exit code. */
export interface Command {
  name: string;
  /** The usage line(s) for `plumb NAME --help`. */
  usage: string;
  run(args: string[], io: CommandIO): Promise<number>;
}

export interface CommandIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Fires on Ctrl-C / SIGTERM so long commands can cancel cleanly. */
  signal: AbortSignal;
  /** Plumb's folders for this run (PLUMB_DATA_DIR and PLUMB_STATE_DIR move them). */
  folders: PlumbFolders;
  /**
   * The app context on those folders, made on first use: its stores load the benchmark's and the
   * planner's code, which a space command never needs.
   */
  context: () => Promise<AppContext>;
}

/**
 * Exit codes: 0 ok, 1 the operation failed (or its output was cut off: see cut-off-output.ts), 2 the
 * command line was wrong.
 */
/** `cancelled`: stopped by Ctrl-C (or SIGTERM) part way, as a shell reports a SIGINT. */
export const exitCode = { ok: 0, failed: 1, usage: 2, cancelled: 130 } as const;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A size on the command line ("512MB", "8GiB", "100"), or a usage error that shows the form. */
export function sizeArgument(text: string): number {
  const bytes = parseSize(text);
  if (bytes === null) {
    throw new PlumbError(
      'EUSAGE',
      `Cannot read the size "${text}": use a number with a unit, like 512MB or 8GiB.`,
    );
  }
  return bytes;
}
