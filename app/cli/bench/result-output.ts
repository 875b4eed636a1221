import type { ResultDocument } from '../../contract/bench-result.js';
import { PlumbError, toErrorPayload } from '../../contract/errors.js';
import { resultJson } from '../../core/bench/results-store.js';
import { isStandardOutput, writeOutput } from '../../core/output-file.js';
import type { CommandIO } from '../command.js';

/**
 * Writes a run's results document to its `--json` output. The run is already saved in the results
 * folder, so a failure here says where it is. True when the document went to standard output
 * (then it is all the command prints there).
 */
export async function writeResultJson(
  target: string,
  document: ResultDocument,
  storeDir: string,
  io: CommandIO,
): Promise<boolean> {
  try {
    await writeOutput(target, resultJson(document), { stdout: io.stdout, signal: io.signal });
  } catch (error) {
    const { code, message } = toErrorPayload(error);
    throw new PlumbError(code, `${message} The result is saved as ${document.id} in ${storeDir}.`, {
      cause: error,
    });
  }
  return isStandardOutput(target);
}
