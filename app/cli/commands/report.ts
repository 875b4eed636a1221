import { readInputFile } from '../../core/input-file.js';
import {
  isResultSchema,
  ResultDocument,
  resultSchemaVersion,
} from '../../contract/bench-result.js';
import { PlumbError } from '../../contract/errors.js';
import type { Scenario } from '../../contract/planner.js';
import { Paper } from '../../contract/report.js';
import { resultCsv, type ResultsStore } from '../../core/bench/results-store.js';
import { checkOutput, isStandardOutput, writeOutput } from '../../core/output-file.js';
import { parseScenario } from '../../core/planner/scenario-file.js';
import { printReportPdf } from '../../core/report/print-pdf.js';
import { reportModel, reportSources, type ReportContent } from '../../core/report/service.js';
import { formatBytes } from '../../common/format.js';
import { parseCommandArgs } from '../args.js';
import { exitCode, UsageError, type Command } from '../command.js';

const usage = `plumb report RESULT [RESULT...] | SCENARIO.json  [--pdf OUT.pdf] [--csv OUT.csv] [--json OUT.json]
                    [--paper a4|letter] [--browser PATH]

  One result gives its report, two or more a comparison, a planner scenario file the plan.
  RESULT is a results document (plumb.result/1 or /2 JSON) or a stored result's id (any unique beginning).

  --pdf OUT       print the report to a PDF with the Chrome, Chromium or Edge on this computer
  --csv OUT       the per-file rows of one result: phase,bytes,seconds,cumulativeBytes,t,temperatureC
  --json OUT      the whole document: the result, or the plan's scenario and evaluation
                  OUT may be a file, a link to one, a FIFO or - (standard output, for one of them)
  --paper SIZE    a4 (the default) or letter
  --browser PATH  the browser program to print with (default: found on its own; or PLUMB_BROWSER)`;

type Source =
  { kind: 'result'; document: ResultDocument } | { kind: 'scenario'; scenario: Scenario };

function looksLikePath(argument: string): boolean {
  return /[/\\]/.test(argument) || /\.json$/i.test(argument);
}

async function readSource(argument: string, store: ResultsStore): Promise<Source> {
  let text: string;
  try {
    text = await readInputFile(argument);
  } catch (error) {
    if (error instanceof PlumbError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !looksLikePath(argument))
      return { kind: 'result', document: await store.get(argument) };
    if (code === 'ENOENT') throw new PlumbError('ENOENT', `No such file: ${argument}.`);
    throw new PlumbError(code ?? 'EIO', `Cannot read ${argument}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new PlumbError('EINVAL', `${argument} is not JSON (${(error as Error).message}).`, {
      cause: error,
    });
  }
  const schema = (data as { schema?: unknown } | null)?.schema;
  if (isResultSchema(schema)) {
    const parsed = ResultDocument.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new PlumbError(
        'EINVAL',
        `${argument} is not a valid ${String(schema)} document: ${issue.path.join('.')}: ${issue.message}.`,
      );
    }
    return { kind: 'result', document: parsed.data };
  }
  if (data && typeof data === 'object' && 'options' in data && 'host' in data)
    return { kind: 'scenario', scenario: parseScenario(data, argument) };
  throw new PlumbError(
    'EINVAL',
    `${argument} is neither a benchmark result (${resultSchemaVersion}) nor a planner scenario.`,
  );
}

/** What the arguments ask to report: one scenario alone, one result, or results to compare. */
function contentOf(sources: Source[]): ReportContent {
  const scenarios = sources.filter((s) => s.kind === 'scenario');
  if (scenarios.length > 0) {
    if (sources.length > 1)
      throw new UsageError('A planner report takes one scenario file and nothing else.');
    return { kind: 'planner', scenario: scenarios[0]!.scenario };
  }
  const documents = sources.map((s) => (s as Extract<Source, { kind: 'result' }>).document);
  return documents.length === 1
    ? { kind: 'result', document: documents[0]! }
    : { kind: 'comparison', documents };
}

export const reportCommand: Command = {
  name: 'report',
  usage,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        pdf: { type: 'string' },
        csv: { type: 'string' },
        json: { type: 'string' },
        paper: { type: 'string' },
        browser: { type: 'string' },
      },
      'report',
    );
    if (values.help) {
      io.stdout.write(`Usage: ${this.usage}\n`);
      return exitCode.ok;
    }
    if (positionals.length === 0)
      throw new UsageError('Give a result (file or id), several to compare, or a scenario file.');
    if (!values.pdf && !values.csv && !values.json)
      throw new UsageError('Say what to write: --pdf OUT.pdf, --csv OUT.csv or --json OUT.json.');
    const paper = Paper.safeParse((values.paper ?? 'a4').toLowerCase());
    if (!paper.success) throw new UsageError(`Unknown paper "${values.paper}": use a4 or letter.`);
    if (positionals.length > 8) throw new UsageError('Compare at most 8 results in one report.');

    const outputs = [values.csv, values.json, values.pdf].filter((o) => o !== undefined);
    for (const output of outputs) await checkOutput(output);
    let onStdout = 0;
    for (const output of outputs) if (await isStandardOutput(output)) onStdout += 1;
    if (onStdout > 1)
      throw new UsageError('Only one of --pdf, --csv and --json can go to standard output.');
    // With an output on standard output, it carries that output alone.
    const say = onStdout > 0 ? io.stderr : io.stdout;
    const written = { stdout: io.stdout, signal: io.signal };

    const context = await io.context();
    const sources: Source[] = [];
    for (const argument of positionals) sources.push(await readSource(argument, context.results));
    const model = await reportModel(
      contentOf(sources),
      paper.data,
      reportSources(context).measured,
    );

    if (values.csv) {
      if (model.kind !== 'result')
        throw new UsageError('--csv writes the files of one result: give exactly one.');
      await writeOutput(values.csv, resultCsv(model.result), written);
      say.write(`Wrote ${values.csv} (${model.result.files.length} files).\n`);
    }
    if (values.json) {
      if (model.kind === 'comparison')
        throw new UsageError('--json writes one document: give one result or a scenario.');
      const document =
        model.kind === 'result'
          ? model.result
          : { scenario: model.scenario, evaluation: model.evaluation };
      await writeOutput(values.json, `${JSON.stringify(document, null, 2)}\n`, written);
      say.write(`Wrote ${values.json}.\n`);
    }
    if (values.pdf) {
      const pdf = await printReportPdf(model, { browserPath: values.browser, signal: io.signal });
      await writeOutput(values.pdf, pdf, written);
      say.write(`Wrote ${values.pdf} (${formatBytes(pdf.length)}): ${model.title}.\n`);
    }
    return exitCode.ok;
  },
};
