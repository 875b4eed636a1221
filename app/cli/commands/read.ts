import path from 'node:path';
import { nativeBenchIO } from '../../core/bench/bench-io.js';
import { resultsDir } from '../../core/bench/results-dir.js';
import { ResultsStore, writeFileAtomic } from '../../core/bench/results-store.js';
import { prepareBenchRun } from '../../core/bench/start.js';
import { parseCommandArgs } from '../args.js';
import { ProgressView } from '../bench/progress.js';
import { describeResult } from '../bench/summary.js';
import { exitCode, UsageError, type Command } from '../command.js';

export const readCommand: Command = {
  name: 'read',
  usage: 'plumb read DIR [--json OUT.json] [--buffered] [--interface ID]',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { json: { type: 'string' }, buffered: { type: 'boolean' }, interface: { type: 'string' } },
      'read',
    );
    if (values.help) {
      io.stdout.write(`Usage: ${this.usage}\n`);
      return exitCode.ok;
    }
    if (positionals.length !== 1) throw new UsageError('Give one folder: plumb read DIR');
    const store = new ResultsStore(resultsDir());
    const progress = new ProgressView(io.stderr);
    const prepared = await prepareBenchRun(
      {
        path: positionals[0]!,
        plan: null,
        scale: 1,
        buffered: values.buffered ?? false,
        keepFiles: false,
        interface: values.interface,
      },
      { signal: io.signal, emit: (event) => progress.handle(event), store, io: nativeBenchIO() },
    );
    const document = await prepared.run();
    progress.clear();
    const json = `${JSON.stringify(document, null, 2)}\n`;
    if (values.json === '-') {
      io.stdout.write(json);
      return exitCode.ok;
    }
    if (values.json !== undefined) await writeFileAtomic(path.resolve(values.json), json);
    io.stdout.write(describeResult(document));
    io.stdout.write(`Saved as ${document.id} in ${store.dir}.\n`);
    return exitCode.ok;
  },
};
