/** Several results on the same charts and in one table. */
import type { Phase, ResultDocument } from '../../../../app/contract/bench-result.js';
import { formatDateTime } from '../../../../app/common/format.js';
import { planTitle } from '../plan-catalogue.js';
import { cumulativeCurve, rateBySize, type Point } from './series.js';
import { headlineRates } from '../../../../app/common/headline-rate.js';
import { capacityCheckLabel, type CapacityVerdict } from '../../../../app/common/capacity-check.js';
import { quickRunLabel } from '../../../../app/common/quick-run.js';

/** Colours that stay apart for people with common colour-vision deficiencies (Okabe-Ito). */
export const seriesPalette = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#000000',
];

/** The name a result goes by: the user's label, else plan and folder. */
export function resultTitle(
  document: Pick<ResultDocument, 'name' | 'plan' | 'environment'>,
): string {
  if (document.name) return document.name;
  const folder = document.environment.volume.path.split(/[/\\]/).filter(Boolean).at(-1) ?? '/';
  return `${planTitle(document.plan.name)} · ${folder}`;
}

export interface OverlaySeries {
  label: string;
  color: string;
  phase: Phase;
  points: Point[];
  /** A curve of the run's samples (joined by a line), with how many rates are behind it. */
  line?: boolean;
  samples?: number;
}

/**
 * One series per result and phase that has files; read phases are drawn dashed by the chart.
 * Against data written, each run is drawn as its result page draws it: from its samples when it
 * has them (so a cache cliff inside a file shows), one point per file otherwise.
 */
export function overlaySeries(
  documents: readonly ResultDocument[],
  axis: 'cumulative' | 'size',
  phases: readonly Phase[] = ['write', 'read'],
): OverlaySeries[] {
  const out: OverlaySeries[] = [];
  documents.forEach((document, index) => {
    for (const phase of phases) {
      const curve =
        axis === 'cumulative'
          ? cumulativeCurve(document, phase)
          : { points: rateBySize(document.files, phase) };
      if (curve.points.length === 0) continue;
      out.push({
        label: `${resultTitle(document)} — ${phase}`,
        color: seriesPalette[index % seriesPalette.length]!,
        phase,
        ...curve,
      });
    }
  });
  return out;
}

export interface ComparisonRow {
  id: string;
  title: string;
  color: string;
  when: string;
  volume: string;
  /** The headline rates (app/common/headline-rate.ts). */
  write: number | null;
  read: number | null;
  /** "Quick run (1 %)" for a run at a scale below 1, else null. */
  quick: string | null;
  /** The capacity check's verdict and its words, for runs made with `--verify`. */
  capacity: { verdict: CapacityVerdict; label: string } | null;
  findings: number;
  /** Each headline relative to the first result's (1 = the same). */
  writeRelative: number | null;
  readRelative: number | null;
}

export function comparisonRows(documents: readonly ResultDocument[]): ComparisonRow[] {
  const baseline = documents[0] ? headlineRates(documents[0]) : { write: null, read: null };
  const relative = (value: number | null, base: number | null) =>
    value !== null && base !== null && base > 0 ? value / base : null;
  return documents.map((document, index) => {
    const headline = headlineRates(document);
    return {
      id: document.id,
      title: resultTitle(document),
      color: seriesPalette[index % seriesPalette.length]!,
      when: formatDateTime(document.startedAt),
      volume: document.environment.volume.path,
      write: headline.write,
      read: headline.read,
      quick: quickRunLabel(document),
      capacity: document.verify
        ? { verdict: document.verify.verdict, label: capacityCheckLabel(document.verify.verdict)! }
        : null,
      findings: document.findings.length,
      writeRelative: relative(headline.write, baseline.write),
      readRelative: relative(headline.read, baseline.read),
    };
  });
}
