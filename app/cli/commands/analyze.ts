import { chosenCeiling } from '../../core/bench/start.js';
import { analysisCancelled } from '../../core/bench/analyze-off-thread.js';
import { runOffThread, workerScript } from '../../core/threads/off-thread.js';
import { appVersion } from '../../core/version.js';
import { parseCommandArgs } from '../args.js';
import { exitCode, UsageError, type Command } from '../command.js';
import type { AnalyzeJob } from './analyze-worker.js';

/** Writes `text`, resolving once the stream takes more (so a large output never piles up here). */
function write(stream: NodeJS.WritableStream, text: string): Promise<void> | void {
  if (stream.write(text)) return;
  return new Promise((resolve) => stream.once('drain', () => resolve()));
}

export const analyzeCommand: Command = {
  name: 'analyze',
  usage: 'plumb analyze FILE.csv|RESULT.json [--json] [--phase write|read] [--interface ID]',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { json: { type: 'boolean' }, phase: { type: 'string' }, interface: { type: 'string' } },
      'analyze',
    );
    if (values.help) {
      io.stdout.write(`Usage: ${this.usage}\n`);
      return exitCode.ok;
    }
    if (positionals.length !== 1)
      throw new UsageError('Give one file: plumb analyze FILE.csv|RESULT.json');
    const phase = values.phase ?? 'write';
    if (phase !== 'write' && phase !== 'read')
      throw new UsageError(`--phase is write or read, not "${phase}".`);
    const file = positionals[0]!;
    const job: AnalyzeJob = {
      file,
      options: { phase, ceiling: chosenCeiling(values.interface), appVersion: appVersion() },
      json: values.json === true,
    };
    // In a worker thread, so Ctrl-C and SIGTERM (io.signal) are heard while it computes.
    await runOffThread(workerScript('analyze-worker', import.meta.url), job, {
      signal: io.signal,
      cancelled: analysisCancelled,
      doing: `Analysing ${file}`,
      onChunk: (text) => write(io.stdout, text),
    });
    return exitCode.ok;
  },
};
