/**
 * The `plumb` command. Each sub-command lives in commands/ and calls app/core directly.
 */
import { toErrorPayload } from '../contract/errors.js';
import { appVersion } from '../core/version.js';
import { exitCode, UsageError, type Command, type CommandIO } from './command.js';
import { analyzeCommand } from './commands/analyze.js';
import { benchCommand } from './commands/bench.js';
import { infoCommand } from './commands/info.js';
import { planCommand } from './commands/plan.js';
import { readCommand } from './commands/read.js';
import { reportCommand } from './commands/report.js';
import { resultsCommand } from './commands/results.js';
import { serveCommand } from './commands/serve.js';
import { spaceCommand } from './commands/space.js';

export const commands: Command[] = [
  benchCommand,
  readCommand,
  analyzeCommand,
  resultsCommand,
  infoCommand,
  planCommand,
  reportCommand,
  spaceCommand,
  serveCommand,
];

export function helpText(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Plumb: honest storage benchmarks, real space savings, purchase planning.',
    '',
    'Usage: plumb COMMAND [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  -h, --help     show help (also `plumb COMMAND --help`)',
    '  -v, --version  print the version',
    '',
  ].join('\n');
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout.write(helpText());
    return first === undefined ? exitCode.usage : exitCode.ok;
  }
  if (first === '--version' || first === '-v') {
    io.stdout.write(`${appVersion()}\n`);
    return exitCode.ok;
  }
  const command = commands.find((c) => c.name === first);
  if (!command) {
    io.stderr.write(`plumb: unknown command "${first}". Run \`plumb --help\` for the list.\n`);
    return exitCode.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`plumb ${command.name}: ${error.message}\n`);
      return exitCode.usage;
    }
    const payload = toErrorPayload(error);
    if (payload.code === 'EUSAGE') {
      io.stderr.write(`plumb ${command.name}: ${payload.message}\n`);
      return exitCode.usage;
    }
    io.stderr.write(`plumb ${command.name}: ${payload.message}\n`);
    return exitCode.failed;
  }
}

/** Runs main with the process's streams and turns Ctrl-C / SIGTERM into a clean cancel. */
export async function runCli(): Promise<void> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const code = await main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
  });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  process.exitCode = code;
}
