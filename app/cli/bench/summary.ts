/** The human-readable account of a results document: the same for bench, read, analyze and show. */
import type { PhaseSummary, ResultDocument } from '../../contract/bench-result.js';
import { formatBytes, formatRate } from '../../common/format.js';
import { headlineWords } from '../../common/headline-rate.js';
import { fitDoesNotDescribeRun, fitMisfit } from '../../common/line-fit-words.js';
import { withHeadline } from '../../core/analysis/headline-rate.js';
import { runPlanDescription } from '../../common/plan-description.js';
import { quickRunNote, quickScaleWords, runScale } from '../../common/quick-run.js';

const rate = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : formatRate(value);
const ms = (seconds: number | null) =>
  seconds === null ? '—' : `${(seconds * 1000).toFixed(2)} ms`;
/** A fitted line's rate and fixed cost, or that it does not describe the run, and why. */
const fit = (line: { rate: number | null; latency: number | null }) => {
  const misfit = fitMisfit(line);
  return misfit === null
    ? `${rate(line.rate)}, ${ms(line.latency)}`
    : `${fitDoesNotDescribeRun} (${misfit})`;
};

function phaseRows(s: PhaseSummary): string[] {
  return [
    String(s.count),
    rate(s.median),
    rate(s.mean),
    s.count ? `${rate(s.min)} – ${rate(s.max)}` : '—',
    rate(s.sd),
    s.trimmedMean
      ? `${rate(s.trimmedMean.rate)} (${rate(s.trimmedMean.p20)} – ${rate(s.trimmedMean.p80)})`
      : '—',
    fit(s.theilSen),
    `${fit(s.linear)}, r² ${s.linear.r2 === null ? '—' : s.linear.r2.toFixed(3)}`,
  ];
}

/** Plain words first, the statistic's own name after it for those who look for it. */
const labels = [
  'Files',
  'Median (the middle file)',
  'Mean',
  'Slowest – fastest',
  'Spread (SD)',
  'Mean of the middle 60 % (trimmed, p20 – p80)',
  'Rate, time per file (Theil–Sen)',
  'Rate, time per file (least squares)',
];

/** Lines describing the document: where and how it ran, both phases, queue runs and findings. */
export function describeResult(document: ResultDocument): string {
  const out: string[] = [];
  const v = document.environment.volume;
  const plan = document.plan as { name: string; seed?: number };
  out.push(
    `Run ${document.id}${document.name ? ` "${document.name}"` : ''}: plan ${plan.name}` +
      (plan.seed !== undefined ? ` (seed ${plan.seed})` : '') +
      (runScale(document) < 1 ? `, ${quickScaleWords(runScale(document)).toLowerCase()}` : ''),
  );
  const quick = quickRunNote(document);
  if (quick) out.push(quick);
  const planWords = runPlanDescription(document.plan, runScale(document));
  if (planWords) out.push(`Plan: ${planWords}`);
  if (v.path !== 'unknown') {
    out.push(
      `On ${v.path} (${v.fsType ?? 'unknown fs'}, bus ${v.bus ?? 'unknown'}, ${formatBytes(v.freeBytes)} free of ${formatBytes(v.totalBytes)}), ${document.environment.cacheMode} I/O`,
    );
  }
  const headlines = headlineWords(withHeadline(document));
  if (headlines) out.push(`Headline: ${headlines}`);
  const phases = (['write', 'read'] as const).filter((p) => document.summary[p].count > 0);
  if (phases.length) {
    const columns = phases.map((p) => [p, ...phaseRows(document.summary[p])]);
    const labelWidth = Math.max(...labels.map((l) => l.length));
    const widths = columns.map((c) => Math.max(...c.map((cell) => cell.length)));
    out.push('');
    out.push("Details: how the files' rates spread, and the lines fitted to size against time.");
    out.push(
      `${' '.repeat(labelWidth)}  ${columns.map((c, k) => c[0]!.padEnd(widths[k]!)).join('  ')}`.trimEnd(),
    );
    labels.forEach((label, row) => {
      out.push(
        [label.padEnd(labelWidth), ...columns.map((c, i) => c[row + 1]!.padEnd(widths[i]!))]
          .join('  ')
          .trimEnd(),
      );
    });
  }
  if (document.runs?.length) {
    out.push('');
    const width = Math.max(...document.runs.map((r) => r.name.length));
    for (const run of document.runs) {
      out.push(
        `${run.name.padEnd(width)}  ${rate(run.bytesPerSecond).padStart(11)}  ${Math.round(run.iops)} IOPS  typically ${ms(run.latency.p50)}, 1 in 100 over ${ms(run.latency.p99)}`,
      );
    }
  }
  if (document.recovery) {
    const r = document.recovery;
    out.push('');
    out.push(
      r.recoverySeconds === null
        ? `Recovery: the write rate was not back after ${r.probes.length} probe(s) (${(r.probes.at(-1)?.idleSeconds ?? 0).toFixed(0)} s idle).`
        : `Recovery: the write rate was back after ${r.recoverySeconds.toFixed(0)} s idle.`,
    );
  }
  if (document.paired) {
    const { a, b } = document.paired.targets;
    out.push('');
    out.push(
      `Paired: a = ${a.path}, b = ${b.path}${document.paired.sameVolume ? ' (one volume)' : ''}`,
    );
    for (const pairing of document.paired.pairings) {
      out.push(
        `  ${pairing.pairing.padEnd(11)}  ${pairing.interferes ? 'interfere' : 'independent'}  ${pairing.message}`,
      );
    }
  }
  if (document.task) {
    const t = document.task;
    out.push('');
    out.push(
      `Task: ${t.codec} level ${t.level} on ${t.workers} thread(s), ${formatBytes(t.inputBytes)} in ${formatBytes(t.chunkBytes)} chunks, output ${(t.compressionRatio * 100).toFixed(0)} % of the input`,
    );
    for (const run of t.runs)
      out.push(
        `  ${run.where.padEnd(6)}  ${rate(run.rate).padStart(11)}  ${run.seconds.toFixed(2)} s`,
      );
    out.push(`  ${t.verdict}: ${t.message}`);
  }
  if (document.verify) {
    out.push('');
    out.push(`Verify: ${document.verify.verdict}. ${document.verify.message}`);
  }
  out.push('');
  if (document.findings.length === 0) out.push('Findings: none.');
  else {
    out.push('Findings:');
    for (const finding of document.findings) {
      out.push(`  - ${finding.kind}: ${finding.message}`);
      // Why the engine thinks so, one step below what was measured.
      if ('reason' in finding && finding.reason) out.push(`      Why: ${finding.reason}`);
    }
  }
  for (const notice of document.notices ?? []) out.push(`Note: ${notice}`);
  return `${out.join('\n')}\n`;
}
