/**
 * The planner's figures in words, the same in the option cards, the CLI's report, the
 * recommendation and the PDF: a cost (an option that buys nothing is said so, not "$0 per added
 * TB") and a number of years (one rounding everywhere, so a card and a warning never disagree).
 */
import { formatUsd, formatUsdRange } from './format.js';

/** "0.5 years", "1 year", "2.3 years", "14 years", "100+ years". */
export function yearsWords(years: number): string {
  if (years >= 100) return '100+ years';
  const rounded = years < 10 ? Math.round(years * 10) / 10 : Math.round(years);
  return `${rounded} ${rounded === 1 ? 'year' : 'years'}`;
}

/** An option's cost as a figure and what it buys per added terabyte. */
export function costWords(
  rangeUsd: readonly [number, number],
  perAddedTbUsd: number | null,
): { figure: string; detail: string } {
  const figure = formatUsdRange(rangeUsd);
  if (Math.round(rangeUsd[1]) === 0) {
    return { figure, detail: 'nothing to buy: the disks are ones you have' };
  }
  return {
    figure,
    detail:
      perAddedTbUsd === null ? 'no space gained' : `${formatUsd(perAddedTbUsd)} per TB you gain`,
  };
}
