import { nativeBenchIO } from '../../core/bench/bench-io.js';
import { checkOutput } from '../../core/output-file.js';
import { writeResultJson } from '../bench/result-output.js';
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
    if (values.json !== undefined) await checkOutput(values.json);
    const store = (await io.context()).results;
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
    if (values.json !== undefined && (await writeResultJson(values.json, document, store.dir, io)))
      return exitCode.ok;
    io.stdout.write(describeResult(document));
    io.stdout.write(`Saved as ${document.id} in ${store.dir}.\n`);
    return exitCode.ok;
  },
};
