/** Which paper a reader prints on: Letter in the Americas that use it, A4 everywhere else. */
import type { Paper } from '../../../app/contract/report.js';

const letterRegions = new Set(['US', 'CA', 'MX', 'PH', 'CL', 'CO', 'VE', 'GT', 'PR', 'CR']);

/** The paper for a BCP 47 locale such as "en-US" or "de-DE"; A4 when the region is not given. */
export function paperForLocale(locale: string | undefined): Paper {
  const region = locale?.split(/[-_]/)[1]?.toUpperCase();
  return region && letterRegions.has(region) ? 'letter' : 'a4';
}
