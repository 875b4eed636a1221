import { runPace } from './pace.js';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { type ResultListItem } from '../../contract/bench.js';
import { Phase, ResultDocument, resultSchemaVersions } from '../../contract/bench-result.js';
import { storedRateCurve } from '../../common/sample-rates.js';
import { PlumbError } from '../../contract/errors.js';

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** A new result id: UTC date and time, then four random hex digits (sorts by time). */
export function newResultId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

import { writePrivateFile } from '../paths.js';
import { headlineRates, headlineWords } from '../../common/headline-rate.js';
import { withHeadline } from '../analysis/headline-rate.js';
import { quickRunNote, runScale } from '../../common/quick-run.js';

/**
 * The document as JSON for people and files: indented, except the sample columns, one line each
 * (a number a line would double the size of a long run's file).
 */
export function resultJson(document: ResultDocument): string {
  const { samplesByPhase, ...rest } = document;
  const text = JSON.stringify(rest, null, 2);
  const phases = Object.entries(samplesByPhase ?? {}).flatMap(([phase, columns]) =>
    columns
      ? [
          `    ${JSON.stringify(phase)}: {\n` +
            `      "t": ${JSON.stringify(columns.t)},\n` +
            `      "bytes": ${JSON.stringify(columns.bytes)},\n` +
            `      "file": ${JSON.stringify(columns.file)}\n    }`,
        ]
      : [],
  );
  if (phases.length === 0) return `${text}\n`;
  // `text` ends with the object's closing "\n}": the samples go in before it.
  return `${text.slice(0, -2)},\n  "samplesByPhase": {\n${phases.join(',\n')}\n  }\n}\n`;
}

/**
 * One line per file: phase,bytes,seconds,cumulativeBytes,t,temperatureC, after `#` comment lines
 * (Plumb's own CSV reader skips them) saying that a run was a quick one and what its headline is.
 * A result that kept its progress samples (`plumb.result/2`) then has, after a blank line and a
 * `# Rate samples` comment, a second table: phase,cumulativeBytes,seconds,MBps, one line for every
 * point of the rate curve its chart draws (app/common/sample-rates.ts), in each phase's order:
 * the bytes of the phase so far at the end of the point's window, the seconds since the phase
 * began at the middle of it, and the rate in MB/s (10^6 bytes a second).
 */
export function resultCsv(document: ResultDocument): string {
  const quick = quickRunNote(document);
  if (document.files.length === 0 && document.runs && document.runs.length > 0) {
    return gridCsv(document, quick);
  }
  const headlines = headlineWords(withHeadline(document));
  const lines = [
    ...(quick ? [`# ${quick}`] : []),
    ...(headlines ? [`# Headline: ${headlines}`] : []),
    'phase,bytes,seconds,cumulativeBytes,t,temperatureC',
  ];
  for (const f of document.files) {
    lines.push(
      [f.phase, f.bytes, f.seconds, f.cumulativeBytes, f.t, f.temperatureC ?? ''].join(','),
    );
  }
  return `${[...lines, ...rateSampleLines(document)].join('\n')}\n`;
}

/** The rate samples table of `resultCsv`: none for a document without samples. */
function rateSampleLines(document: ResultDocument): string[] {
  const lines: string[] = [];
  for (const phase of Phase.options) {
    const curve = storedRateCurve(document.samplesByPhase?.[phase]);
    if (!curve) continue;
    for (let i = 0; i < curve.rate.length; i += 1) {
      lines.push(
        [
          phase,
          Math.round(curve.endBytes[i]!),
          Number(curve.seconds[i]!.toFixed(6)),
          Number((curve.rate[i]! / 1e6).toFixed(3)),
        ].join(','),
      );
    }
  }
  if (lines.length === 0) return [];
  return [
    '',
    '# Rate samples: every point of the rate chart; cumulativeBytes at the end of its window, seconds since the phase began, MB/s',
    'phase,cumulativeBytes,seconds,MBps',
    ...lines,
  ];
}

/**
 * A queue-depth grid (no files, one line per run): what the grid shows, in its units, after the
 * test file's size and each run's length, which the grid's caption gives.
 */
function gridCsv(document: ResultDocument, quick: string | null): string {
  const plan = document.plan as { fileBytes?: unknown; durationSeconds?: unknown };
  const test = [
    typeof plan.fileBytes === 'number' ? `test file ${plan.fileBytes} bytes` : null,
    typeof plan.durationSeconds === 'number' ? `each run ${plan.durationSeconds} s` : null,
    `${document.runs!.length} runs`,
  ].filter((part): part is string => part !== null);
  const lines = [
    ...(quick ? [`# ${quick}`] : []),
    `# Queue-depth grid: ${test.join(', ')}`,
    'name,op,blockSize,queueDepth,threads,bytesPerSecond,iops,latencyP50Seconds,latencyP99Seconds,latencyP999Seconds',
  ];
  for (const run of document.runs!) {
    lines.push(
      [
        run.name,
        run.op,
        run.blockSize,
        run.queueDepth,
        run.threads,
        run.bytesPerSecond,
        run.iops,
        run.latency.p50,
        run.latency.p99,
        run.latency.p999,
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

export function listItem(document: ResultDocument): ResultListItem {
  const headline = headlineRates(withHeadline(document));
  return {
    id: document.id,
    name: document.name ?? null,
    startedAt: document.startedAt,
    plan: document.plan.name,
    volumePath: document.environment.volume.path,
    files: document.files.length,
    writeMedian: headline.write,
    readMedian: headline.read,
    scale: runScale(document),
    findings: document.findings.map((f) => f.kind),
    ...(document.verify ? { capacityCheck: document.verify.verdict } : {}),
    pace: runPace(document),
  };
}

/** The results folder: one `ID.json` per run, written atomically. */
export class ResultsStore {
  constructor(readonly dir: string) {}

  fileOf(id: string): string {
    if (!idPattern.test(id)) throw new PlumbError('EINVAL', `"${id}" is not a result id.`);
    return path.join(this.dir, `${id}.json`);
  }

  /** Validates and stores the document; returns its path. */
  async save(document: ResultDocument): Promise<string> {
    const checked = ResultDocument.parse(document);
    const file = this.fileOf(checked.id);
    await writePrivateFile(file, resultJson(checked));
    return file;
  }

  private async ids(): Promise<string[]> {
    try {
      const names = await readdir(this.dir);
      return names
        .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
        .map((n) => n.slice(0, -5));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  /** The id itself, or the one stored id it is a prefix of. */
  async resolveId(idOrPrefix: string): Promise<string> {
    const ids = await this.ids();
    if (ids.includes(idOrPrefix)) return idOrPrefix;
    const matches = ids.filter((id) => id.startsWith(idOrPrefix));
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      throw new PlumbError(
        'EINVAL',
        `"${idOrPrefix}" matches ${matches.length} results; give more of the id.`,
      );
    }
    throw new PlumbError(
      'ENOENT',
      `No result "${idOrPrefix}" in ${this.dir}. \`plumb results list\` shows them.`,
    );
  }

  async get(idOrPrefix: string): Promise<ResultDocument> {
    const id = await this.resolveId(idOrPrefix);
    const file = this.fileOf(id);
    const text = await readFile(file, 'utf8');
    const parsed = ResultDocument.safeParse(JSON.parse(text));
    if (!parsed.success)
      throw new PlumbError(
        'EINVAL',
        `${file} is not a Plumb result (${resultSchemaVersions.join(' or ')}) document.`,
      );
    return withHeadline(parsed.data);
  }

  /** Every readable result, newest first; files that are not results are skipped. */
  async list(): Promise<ResultListItem[]> {
    const items: ResultListItem[] = [];
    for (const id of await this.ids()) {
      try {
        items.push(listItem(await this.get(id)));
      } catch {
        // Not a result (or being written by another process): not listed.
      }
    }
    return items.sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id));
  }

  async delete(idOrPrefix: string): Promise<boolean> {
    const id = await this.resolveId(idOrPrefix);
    await rm(this.fileOf(id));
    return true;
  }

  async rename(idOrPrefix: string, name: string): Promise<ResultListItem> {
    const document = await this.get(idOrPrefix);
    const renamed = { ...document, name };
    await this.save(renamed);
    return listItem(renamed);
  }
}
