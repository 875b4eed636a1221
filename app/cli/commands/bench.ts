import { PairedDirection } from '../../contract/plan.js';
import { listInWords } from '../../common/format.js';
import type { PlanOptions } from '../../common/plan-kind.js';
import {
  builtinNamesWhere,
  builtinPlanEntries,
  planKindOf,
  type KindedPlan,
} from '../../common/plan-kinds.js';
import { PlumbError, spaceGuardCode } from '../../contract/errors.js';
import { checkOutput } from '../../core/output-file.js';
import { writeResultJson } from '../bench/result-output.js';
import { nativeBenchIO } from '../../core/bench/bench-io.js';
import { loadPlan, scalePlan } from '../../core/bench/plans.js';
import { prepareBenchRun } from '../../core/bench/start.js';
import { parseCommandArgs } from '../args.js';
import { ProgressView } from '../bench/progress.js';
import { describeResult } from '../bench/summary.js';
import { exitCode, UsageError, type Command, sizeArgument } from '../command.js';

/** The built-in plans whose kind takes an option, in words: "sustained and capacity". */
function plansTaking(takes: (options: PlanOptions<KindedPlan>) => boolean): string {
  return listInWords(builtinNamesWhere((kind) => takes(kind.options)));
}

/** `plumb bench --help`: the plans and what each option applies to, from the kinds' table. */
function benchUsage(): string {
  const oneFolder = builtinPlanEntries.filter(
    (entry) => !planKindOf(entry.plan).options.secondFolder,
  );
  const twoFolders = builtinPlanEntries.filter(
    (entry) => planKindOf(entry.plan).options.secondFolder,
  );
  const names = oneFolder.map((entry) => entry.plan.name).join('|');
  const plans = builtinPlanEntries.flatMap(({ plan, usage }, index) =>
    usage.map((line, at) =>
      at > 0
        ? `${' '.repeat(18)}${line}`
        : `${index === 0 ? 'Plans: ' : '       '}${plan.name.padEnd(11)}${line}`,
    ),
  );
  return [
    `plumb bench DIR [--plan ${names}|PLAN.json] [--scale F] [--total SIZE]`,
    '                [--json OUT.json] [--keep-files] [--buffered] [--reserve SIZE] [--interface ID] [--seed N]',
    '                [--verify]',
    ...twoFolders.map(
      ({ plan }) =>
        `plumb bench DIR --plan ${plan.name} --with DIR2 [--direction ${PairedDirection.options.join('|')}] [options above]`,
    ),
    '',
    ...plans,
    '',
    `  --with DIR2     the second folder of the ${plansTaking((kind) => kind.secondFolder)} plan (another volume, or the same one)`,
    `  --direction D   ${plansTaking((kind) => kind.secondFolder)}: same, opposite or both (default both)`,
    '  --scale F       shrink every size by F (0 < F ≤ 1) for a quick run',
    `  --total SIZE    cap what the ${plansTaking((kind) => kind.total !== null)} plans write (e.g. 64GB)`,
    '  --json OUT      also write the results document to OUT: a file, a link to one, a FIFO; "-" prints',
    '                  it instead of the summary',
    '  --keep-files    leave the test files in DIR/plumb-test-*',
    '  --buffered      go through the OS cache (flushed) instead of direct I/O',
    `  --verify        ${builtinNamesWhere((kind) => kind.options.verify === 'optional').join(', ')}: read every file back and check each 4 KiB`,
    '                  block is the one written there (catches fake-capacity and failing drives;',
    `                  the ${plansTaking((kind) => kind.verify === 'always')} plan always does)`,
    '  --reserve SIZE  free space to leave on the volume (default: the larger of 10 % and 1 GB)',
    '  --interface ID  interface ceiling to check rates against: usb3-gen1, sata, usb3-gen2,',
    '                  usb3-gen2x2, tb3, usb4, tb5 (default: from the bus the OS reports)',
  ].join('\n');
}

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
  usage: benchUsage(),
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
    const takes = planKindOf(plan).options;
    if (values.total !== undefined && takes.total === null)
      throw new UsageError(
        `--total applies to the ${plansTaking((kind) => kind.total !== null)} plans only.`,
      );
    if (takes.secondFolder && values.with === undefined)
      throw new UsageError(`The ${plan.name} plan needs a second folder: --with DIR2`);
    if (!takes.secondFolder && (values.with !== undefined || values.direction !== undefined))
      throw new UsageError(
        `--with and --direction apply to the ${plansTaking((kind) => kind.secondFolder)} plan only.`,
      );
    const direction = parseDirection(values.direction);
    const totalBytes = values.total === undefined ? undefined : sizeArgument(values.total);
    if (totalBytes === 0) throw new UsageError('--total takes a size above 0, e.g. 64GB.');
    // Said before the run, not after it: a mistyped --json folder must not cost the benchmark.
    if (values.json !== undefined) await checkOutput(values.json);
    const store = (await io.context()).results;
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
