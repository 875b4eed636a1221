import { analyzeFile } from '../../core/bench/analyze.js';
import { chosenCeiling } from '../../core/bench/start.js';
import { appVersion } from '../../core/version.js';
import { parseCommandArgs } from '../args.js';
import { describeResult } from '../bench/summary.js';
import { exitCode, UsageError, type Command } from '../command.js';

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
    const document = await analyzeFile(positionals[0]!, {
      phase,
      ceiling: chosenCeiling(values.interface),
      appVersion: appVersion(),
    });
    io.stdout.write(
      values.json ? `${JSON.stringify(document, null, 2)}\n` : describeResult(document),
    );
    return exitCode.ok;
  },
};
