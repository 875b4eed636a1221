/**
 * The verdict's table: the headline, then every statistic of DESIGN.md as one row, write and
 * read side by side.
 */
import type {
  PhaseSummary,
  QueueRunResult,
  ResultDocument,
} from '../../../../app/contract/bench-result.js';
import { dash, formatIops, formatNumber, formatRate } from '../../../../app/common/format.js';
import { headline, type Direction, type Headline } from '../../../../app/common/headline-rate.js';
import { lineFitWords } from '../../../../app/common/line-fit-words.js';

/** A cell of the table: its figure, and a few words under it where the figure needs them. */
export interface SummaryCell {
  value: string;
  note?: string;
}

export interface SummaryRow {
  method: string;
  /** One line on what the method tells, for a tooltip or a caption. */
  meaning: string;
  write: SummaryCell;
  read: SummaryCell;
}

interface MethodDefinition {
  method: string;
  meaning: string;
  value(summary: PhaseSummary, headline: Headline): string | SummaryCell;
}

const methods: MethodDefinition[] = [
  {
    method: 'Headline',
    meaning:
      "The run's headline figure, the one the verdict, history, compare view and planner use.",
    value: (_s, h) => ({ value: h.rate === null ? dash : formatRate(h.rate), note: h.basis }),
  },
  { method: 'Files', meaning: 'Transfers measured.', value: (s) => String(s.count) },
  {
    method: 'Mean',
    meaning: 'Average of the per-file rates; pulled up or down by outliers.',
    value: (s) => formatRate(s.mean),
  },
  {
    method: 'Median',
    meaning: 'Half the files were faster, half slower, small files counted alike.',
    value: (s) => formatRate(s.median),
  },
  {
    method: 'Range',
    meaning: 'Slowest and fastest single file.',
    value: (s) =>
      s.min === null || s.max === null ? dash : `${formatRate(s.min)} – ${formatRate(s.max)}`,
  },
  {
    method: 'Trimmed mean (20 %)',
    meaning: 'Mean of the middle 60 % of rates, with the 20th and 80th centiles.',
    value: (s) =>
      s.trimmedMean
        ? `${formatRate(s.trimmedMean.rate)} (${formatRate(s.trimmedMean.p20)} – ${formatRate(s.trimmedMean.p80)})`
        : dash,
  },
  {
    method: 'Theil-Sen rate',
    meaning: 'Slope of time against size, robust to outliers, over files of every size.',
    value: (s) => lineFitWords(s.theilSen).rate,
  },
  {
    method: 'Theil-Sen latency',
    meaning: 'Fixed cost per file (the intercept): open, flush and close.',
    value: (s) => lineFitWords(s.theilSen).latency,
  },
  {
    method: 'Linear rate',
    meaning: 'Least-squares slope of time against size.',
    value: (s) => lineFitWords(s.linear).rate,
  },
  {
    method: 'Linear latency',
    meaning: 'Least-squares intercept: fixed cost per file.',
    value: (s) => lineFitWords(s.linear).latency,
  },
  {
    method: 'Linear r²',
    meaning: 'How well a straight line fits: 1 is a perfectly steady disk.',
    value: (s) => formatNumber(s.linear.r2, 4),
  },
];

/** Rows for the phases the run measured; a phase with no files shows dashes. */
export function summaryRows(document: Pick<ResultDocument, 'summary' | 'headline'>): SummaryRow[] {
  const cell = (phase: Direction, m: MethodDefinition): SummaryCell => {
    const summary = document.summary[phase];
    if (summary.count === 0 && m.method !== 'Files') return { value: dash };
    const value = m.value(summary, headline(document, phase));
    return typeof value === 'string' ? { value } : value;
  };
  return methods.map((m) => ({
    method: m.method,
    meaning: m.meaning,
    write: cell('write', m),
    read: cell('read', m),
  }));
}

export interface HeadlineTile {
  label: string;
  value: string;
  note: string;
}

/** A grid's tile, with its words for the verdict's sentence. */
export interface QueueTile extends HeadlineTile {
  /** "random read 186 k IOPS (44 k IOPS one request at a time)". */
  said: string;
}

const depthOf = (run: QueueRunResult) => run.queueDepth * run.threads;

/**
 * Headline tiles of a queue-depth run: the best sequential read and write, and the best random
 * 4K reads and writes, each with its figure at the shallowest queue (what everyday responsiveness
 * feels like) when another run set the best.
 */
export function queueHeadlines(runs: readonly QueueRunResult[]): QueueTile[] {
  const ofOp = (op: QueueRunResult['op']) => runs.filter((r) => r.op === op);
  const best = (list: QueueRunResult[], figure: (r: QueueRunResult) => number) =>
    list.reduce<QueueRunResult | null>(
      (top, r) => (!top || figure(r) > figure(top) ? r : top),
      null,
    );
  const tiles: QueueTile[] = [];
  for (const [label, op] of [
    ['Sequential read', 'read'],
    ['Sequential write', 'write'],
  ] as const) {
    const run = best(ofOp(op), (r) => r.bytesPerSecond);
    if (run) {
      const value = formatRate(run.bytesPerSecond);
      tiles.push({ label, value, note: run.name, said: `${label.toLowerCase()} ${value}` });
    }
  }
  for (const [label, op] of [
    ['Random read', 'randread'],
    ['Random write', 'randwrite'],
  ] as const) {
    const list = ofOp(op);
    const run = best(list, (r) => r.iops);
    const shallow = best(list, (r) => -depthOf(r));
    if (!run || !shallow) continue;
    const value = formatIops(run.iops);
    // The everyday figure in words: how many requests were waiting at once (the queue depth).
    const depth = depthOf(shallow);
    const atShallow =
      shallow === run
        ? ''
        : `${formatIops(shallow.iops)} ${depth === 1 ? 'one request at a time' : `${depth} requests at once`}`;
    tiles.push({
      label,
      value,
      note: [`${run.name} · ${formatRate(run.bytesPerSecond)}`, atShallow]
        .filter(Boolean)
        .join('; '),
      said: `${label.toLowerCase()} ${value}${atShallow ? ` (${atShallow})` : ''}`,
    });
  }
  return tiles;
}
