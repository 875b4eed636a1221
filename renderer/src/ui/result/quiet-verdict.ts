/**
 * What a result with no finding says in their place. "Steady" is said only of a rate curve that
 * is: the very curve the chart draws (cumulativeCurve: the samples windowed by
 * app/common/sample-rates.ts, then thinned by app/common/decimate.ts); otherwise it says what the
 * rate did. A ceiling is named only when the result records the one its rates were checked
 * against (environment.ceiling), and an unknown bus is said to be unknown.
 */
import type { Phase, ResultDocument } from '../../../../app/contract/bench-result.js';
import { formatRate } from '../../../../app/common/format.js';
import { cumulativeCurve, type Point } from './series.js';

export type RateCourse =
  | { kind: 'steady'; rate: number }
  | { kind: 'fell' | 'rose'; from: number; to: number }
  | { kind: 'varied'; low: number; high: number };

/** A curve is steady while its 10th and 90th centiles and both ends lie within this factor of its median. */
const steadyBand = 1.25;
/** Its ends differ by more than this factor: it fell or rose. */
const trendFactor = 1.25;
/**
 * The share of the curve's span (on its x axis) its start and its end are read over: the start
 * short, as a chart's reader sees where the curve begins (a cache of memory passes in moments),
 * the end longer, where the rate has settled.
 */
const startShare = 0.02;
const endShare = 0.1;
/** Fewest points an end is read over. */
const endPoints = 3;

function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

const median = (values: readonly number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** What a drawn rate curve did, or null when it has too few points to say. */
export function rateCourse(points: readonly Point[]): RateCourse | null {
  const drawn = points.filter((p) => Number.isFinite(p.y) && p.y > 0);
  if (drawn.length < 3) return null;
  const first = drawn[0]!.x;
  const span = drawn.at(-1)!.x - first;
  const head = drawn.filter((p) => p.x <= first + startShare * span);
  const tail = drawn.filter((p) => p.x >= first + (1 - endShare) * span);
  const start = median(
    (head.length >= endPoints ? head : drawn.slice(0, endPoints)).map((p) => p.y),
  );
  const end = median((tail.length >= endPoints ? tail : drawn.slice(-endPoints)).map((p) => p.y));
  const rates = drawn.map((p) => p.y).sort((a, b) => a - b);
  const middle = quantile(rates, 0.5);
  const within = (rate: number) => rate >= middle / steadyBand && rate <= middle * steadyBand;
  if ([quantile(rates, 0.1), quantile(rates, 0.9), start, end].every(within))
    return { kind: 'steady', rate: middle };
  if (end * trendFactor < start) return { kind: 'fell', from: start, to: end };
  if (end > start * trendFactor) return { kind: 'rose', from: start, to: end };
  return { kind: 'varied', low: quantile(rates, 0.1), high: quantile(rates, 0.9) };
}

function courseWords(course: RateCourse): string {
  switch (course.kind) {
    case 'steady':
      return `held steady at about ${formatRate(course.rate)}`;
    case 'fell':
    case 'rose':
      return `${course.kind} from about ${formatRate(course.from)} to ${formatRate(course.to)} as the run went on`;
    case 'varied':
      return `varied between about ${formatRate(course.low)} and ${formatRate(course.high)}`;
  }
}

/** The ceiling the result's rates were checked against, in a sentence; empty when it is not recorded. */
function ceilingSentence(document: ResultDocument): string {
  const ceiling = document.environment.ceiling;
  if (!ceiling || document.files.length === 0) return '';
  if (ceiling.id !== 'any-ssd')
    return `No file was faster than ${ceiling.label} carries (${formatRate(ceiling.bytesPerSecond)}).`;
  const bus = document.environment.volume.bus;
  const unknown = bus
    ? `Plumb knows no ceiling for its bus (${bus.toUpperCase()})`
    : 'The bus was not reported, so no interface ceiling applies';
  return `${unknown}; no file was faster than ${ceiling.label} (${formatRate(ceiling.bytesPerSecond)}).`;
}

/** The sentence a result without findings shows where its findings would be. */
export function quietVerdict(document: ResultDocument): string {
  const courses = (['write', 'read'] as Phase[])
    .filter((phase) => document.summary[phase].count > 0)
    .map((phase) => ({ phase, course: rateCourse(cumulativeCurve(document, phase).points) }))
    .filter((c): c is { phase: Phase; course: RateCourse } => c.course !== null);
  const said = courses.map(({ phase, course }) => `the ${phase} rate ${courseWords(course)}`);
  const list = said.length > 1 ? `${said.slice(0, -1).join(', ')} and ${said.at(-1)!}` : said[0];
  const ceiling = ceilingSentence(document);
  const tail = ceiling ? ` ${ceiling}` : '';
  if (!list) return `Nothing unusual was found.${tail}`;
  if (courses.every((c) => c.course.kind === 'steady'))
    return `Nothing unusual: ${list}, and no cache cliff or throttling was found.${tail}`;
  return `No finding, but the chart shows more: ${list}, without a step Plumb could place.${tail}`;
}
