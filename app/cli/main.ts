/**
 * The `plumb` command. Each sub-command lives in commands/ and calls app/core directly.
 */
import { toErrorPayload } from '../contract/errors.js';
import type { AppContext } from '../core/context.js';
import { plumbFolders } from '../core/paths.js';
import { appVersion } from '../core/version.js';
import { finished } from 'node:stream/promises';
import { exitCode, UsageError, type Command, type CommandIO } from './command.js';
import { CutOffOutput } from './cut-off-output.js';
import { printable } from './printable.js';

/** A command as `plumb --help` lists it; its module is loaded only when it runs. */
export interface CommandEntry {
  name: string;
  /** One line for `plumb --help`. */
  summary: string;
  load: () => Promise<Command>;
}

// Loaded on demand (the build splits them into chunks): `plumb space scan` starts without the
// benchmark engine, the planner, the web server or zod.
const commands: CommandEntry[] = [
  {
    name: 'bench',
    summary:
      "measure a folder's drive: write and read test files uncached (plans: standard, series, sustained, presets, paired, task)",
    load: async () => (await import('./commands/bench.js')).benchCommand,
  },
  {
    name: 'read',
    summary: 'time reading every file under a folder, uncached (e.g. files written long ago)',
    load: async () => (await import('./commands/read.js')).readCommand,
  },
  {
    name: 'analyze',
    summary: 'summary and findings for a results JSON or a CSV of bytes,seconds[,cumulativeBytes]',
    load: async () => (await import('./commands/analyze.js')).analyzeCommand,
  },
  {
    name: 'results',
    summary: 'list, show, export (CSV), rename or delete stored benchmark results',
    load: async () => (await import('./commands/results.js')).resultsCommand,
  },
  {
    name: 'info',
    summary: 'volume facts for a folder: file system, free space, block size, bus, features',
    load: async () => (await import('./commands/info.js')).infoCommand,
  },
  {
    name: 'plan',
    summary: 'compare storage purchases (bigger internal SSD or external) for your workloads',
    load: async () => (await import('./commands/plan.js')).planCommand,
  },
  {
    name: 'report',
    summary: 'a report to hand on: PDF of a result, a comparison or a plan; CSV and JSON',
    load: async () => (await import('./commands/report.js')).reportCommand,
  },
  {
    name: 'space',
    summary: 'duplicates into clones with honest savings; sparse files',
    load: async () => (await import('./commands/space.js')).spaceCommand,
  },
  {
    name: 'serve',
    summary: 'the Plumb UI in your browser, on 127.0.0.1, opened by a one-time sign-in link',
    load: async () => (await import('./commands/serve.js')).serveCommand,
  },
];

function helpText(): string {
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

async function main(argv: string[], io: CommandIO): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout.write(helpText());
    return first === undefined ? exitCode.usage : exitCode.ok;
  }
  if (first === '--version' || first === '-v') {
    io.stdout.write(`${appVersion()}\n`);
    return exitCode.ok;
  }
  const entry = commands.find((c) => c.name === first);
  if (!entry) {
    io.stderr.write(`plumb: unknown command "${first}". Run \`plumb --help\` for the list.\n`);
    return exitCode.usage;
  }
  const command = await entry.load();
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`plumb ${command.name}: ${printable(error.message)}\n`);
      return exitCode.usage;
    }
    const payload = toErrorPayload(error);
    if (payload.code === 'EUSAGE') {
      io.stderr.write(`plumb ${command.name}: ${printable(payload.message)}\n`);
      return exitCode.usage;
    }
    io.stderr.write(`plumb ${command.name}: ${printable(payload.message)}\n`);
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
  const stdout = new CutOffOutput(process.stdout);
  const stderr = new CutOffOutput(process.stderr);
  // The CLI's composition root: the folders named once, the context made when a command asks.
  const folders = plumbFolders();
  let context: Promise<AppContext> | undefined;
  let code = await main(process.argv.slice(2), {
    stdout,
    stderr,
    signal: controller.signal,
    folders,
    context: () =>
      (context ??= import('../core/context.js').then((m) => m.createAppContext(folders))),
  });
  await Promise.all([stdout, stderr].map((stream) => finished(stream.end())));
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if ((stdout.cutOff || stderr.cutOff) && code === exitCode.ok) {
    // The work was done in full; the exit code says that some of its output was not delivered.
    code = exitCode.failed;
    if (!stderr.cutOff) {
      process.stderr.write(
        'plumb: the output was cut off (its reader closed it before everything was written); the work itself was done.\n',
      );
    }
  }
  process.exitCode = code;
}
