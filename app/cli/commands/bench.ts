import { PairedDirection } from '../../contract/bench.js';
import { PlumbError, spaceGuardCode } from '../../contract/errors.js';
import { checkOutput } from '../../core/output-file.js';
import { writeResultJson } from '../bench/result-output.js';
import { nativeBenchIO } from '../../core/bench/bench-io.js';
import { loadPlan, scalePlan } from '../../core/bench/plans.js';
import { resultsDir } from '../../core/bench/results-dir.js';
import { ResultsStore } from '../../core/bench/results-store.js';
import { prepareBenchRun } from '../../core/bench/start.js';
import { parseCommandArgs } from '../args.js';
import { ProgressView } from '../bench/progress.js';
import { describeResult } from '../bench/summary.js';
import { exitCode, UsageError, type Command, sizeArgument } from '../command.js';

function parseScale(text: string | undefined): number {
  if (text === undefined) return 1;
  const scale = Number(text);
  if (!(scale > 0 && scale <= 1))
    throw new UsageError(`--scale takes a number above 0 and at most 1, not "${text}".`);
  return scale;
}

function parseDirection(text: string | undefined): PairedDirection | undefined {
  if (text === undefined) return undefined;
  const parsed = PairedDirection.safeParse(text);
  if (!parsed.success)
    throw new UsageError(`--direction takes same, opposite or both, not "${text}".`);
  return parsed.data;
}

export const benchCommand: Command = {
  name: 'bench',
  usage: [
    'plumb bench DIR [--plan standard|series|sustained|capacity|presets|task|PLAN.json] [--scale F] [--total SIZE]',
    '                [--json OUT.json] [--keep-files] [--buffered] [--reserve SIZE] [--interface ID] [--seed N]',
    '                [--verify]',
    'plumb bench DIR --plan paired --with DIR2 [--direction same|opposite|both] [options above]',
    '',
    'Plans: standard   160 files, 2 MB to 2 GB, written then read back uncached',
    '       series     10 KB to 2 GB in 14 sizes, 3 repeats each',
    '       sustained  write until past the cache, find the cliff, time the recovery',
    '       capacity   fill the free space, read it all back and check every 4 KiB block: says',
    '                  whether the drive holds what it claims (as f3 and h2testw)',
    '       presets    SEQ1M Q8T1 ... RND4K Q1T1, read and write',
    '       paired     DIR and DIR2 each alone, then together: both writing, both reading (same),',
    '                  DIR writing while DIR2 reads (opposite); says whether they slow each other',
    '       task       compress a 4 GB file on every core from and to DIR and in memory; says',
    '                  whether the task is disk-bound on this volume',
    '',
    '  --with DIR2     the second folder of the paired plan (another volume, or the same one)',
    '  --direction D   paired: same, opposite or both (default both)',
    '  --scale F       shrink every size by F (0 < F ≤ 1) for a quick run',
    '  --total SIZE    cap a sustained run or a capacity check (e.g. 64GB)',
    '  --json OUT      also write the results document to OUT: a file, a link to one, a FIFO; "-" prints',
    '                  it instead of the summary',
    '  --keep-files    leave the test files in DIR/plumb-test-*',
    '  --buffered      go through the OS cache (flushed) instead of direct I/O',
    '  --verify        standard, series, sustained: read every file back and check each 4 KiB',
    '                  block is the one written there (catches fake-capacity and failing drives;',
    '                  the capacity plan always does)',
    '  --reserve SIZE  free space to leave on the volume (default: the larger of 10 % and 1 GB)',
    '  --interface ID  interface ceiling to check rates against: usb3-gen1, sata, usb3-gen2,',
    '                  usb3-gen2x2, tb3, usb4, tb5 (default: from the bus the OS reports)',
  ].join('\n'),
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        plan: { type: 'string' },
        scale: { type: 'string' },
        total: { type: 'string' },
        json: { type: 'string' },
        'keep-files': { type: 'boolean' },
        buffered: { type: 'boolean' },
        verify: { type: 'boolean' },
        reserve: { type: 'string' },
        interface: { type: 'string' },
        seed: { type: 'string' },
        with: { type: 'string' },
        direction: { type: 'string' },
      },
      'bench',
    );
    if (values.help) {
      io.stdout.write(`Usage: ${this.usage}\n`);
      return exitCode.ok;
    }
    if (positionals.length !== 1) throw new UsageError('Give one folder: plumb bench DIR');
    const scale = parseScale(values.scale);
    const seed = values.seed === undefined ? undefined : Number(values.seed);
    if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0))
      throw new UsageError(`--seed takes a whole number, not "${values.seed}".`);
    const plan = scalePlan(await loadPlan(values.plan ?? 'standard'), scale);
    if (values.total !== undefined && plan.kind !== 'sustained' && plan.kind !== 'capacity')
      throw new UsageError('--total applies to the sustained and capacity plans only.');
    if (plan.kind === 'paired' && values.with === undefined)
      throw new UsageError('The paired plan needs a second folder: --with DIR2');
    if (plan.kind !== 'paired' && (values.with !== undefined || values.direction !== undefined))
      throw new UsageError('--with and --direction apply to the paired plan only.');
    const direction = parseDirection(values.direction);
    const totalBytes = values.total === undefined ? undefined : sizeArgument(values.total);
    if (totalBytes === 0) throw new UsageError('--total takes a size above 0, e.g. 64GB.');
    // Said before the run, not after it: a mistyped --json folder must not cost the benchmark.
    if (values.json !== undefined) await checkOutput(values.json);
    const store = new ResultsStore(resultsDir());
    const progress = new ProgressView(io.stderr);
    const prepared = await prepareBenchRun(
      {
        path: positionals[0]!,
        plan,
        scale,
        totalBytes,
        buffered: values.buffered ?? false,
        keepFiles: values['keep-files'] ?? false,
        reserveBytes: values.reserve === undefined ? undefined : sizeArgument(values.reserve),
        interface: values.interface,
        seed,
        pairedWith: values.with,
        direction,
        verify: values.verify ?? false,
      },
      { signal: io.signal, emit: (event) => progress.handle(event), store, io: nativeBenchIO() },
    ).catch(withGuardFlags);
    const document = await prepared.run().catch(withGuardFlags);
    progress.clear();
    if (values.json !== undefined && (await writeResultJson(values.json, document, store.dir, io)))
      return exitCode.ok;
    io.stdout.write(describeResult(document));
    io.stdout.write(
      `Saved as ${document.id} in ${store.dir}${values.json ? ` and ${values.json}` : ''}.\n`,
    );
    return exitCode.ok;
  },
};

/** The guard's refusal names the app's settings; on the command line these flags do the same. */
function withGuardFlags(error: unknown): never {
  if (error instanceof PlumbError && error.code === spaceGuardCode) {
    throw new PlumbError(
      error.code,
      `${error.message} Here: --scale or --total for a smaller run, --reserve to change the guard.`,
      { cause: error },
    );
  }
  throw error;
}
