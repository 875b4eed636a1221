import { formatRate } from '../../common/format.js';
import type { Pairing } from '../../common/plan-kind-paired.js';

export interface PairingRates {
  pairing: Pairing;
  /** Each target's rate alone (in its direction of the pairing) and while both ran, bytes/s. */
  aloneA: number;
  aloneB: number;
  togetherA: number;
  togetherB: number;
  /** Both folders on one volume: they share it by design, not through a link. */
  sameVolume?: boolean;
}

export interface Interference extends PairingRates {
  aggregate: number;
  /** aggregate ÷ (aloneA + aloneB). */
  retained: number;
  interferes: boolean;
  message: string;
}

/** Together, the pair must keep at least this share of their summed solo rates to be independent. */
const independentShare = 0.9;

const described: Record<Pairing, string> = {
  'write+write': 'Both writing',
  'read+read': 'Both reading',
  'write+read': 'One writing (a) while the other reads (b)',
};

const percent = (share: number) => `${Math.round(share * 100)} %`;

/**
 * Whether two targets slow each other down (seed 000: two USB4 SSDs on one TB5 dock kept about
 * 3.1 GB/s each in the same direction but a single SSD's speed each in opposite directions): the
 * rate both sustain together against the sum of their rates alone. Below `independentShare` they
 * interfere — something between them (a link, a hub, a controller, one volume) is shared.
 */
export function interference(rates: PairingRates): Interference {
  const aggregate = rates.togetherA + rates.togetherB;
  const alone = rates.aloneA + rates.aloneB;
  const retained = alone > 0 ? aggregate / alone : 1;
  const interferes = retained < independentShare;
  const head =
    `${described[rates.pairing]}: ${formatRate(aggregate)} together ` +
    `(a ${formatRate(rates.togetherA)}, b ${formatRate(rates.togetherB)}) against ` +
    `${formatRate(rates.aloneA)} + ${formatRate(rates.aloneB)} alone`;
  let verdict: string;
  if (!interferes) verdict = 'no interference: each kept its speed';
  else {
    const keptA = rates.aloneA > 0 ? rates.togetherA / rates.aloneA : 1;
    const keptB = rates.aloneB > 0 ? rates.togetherB / rates.aloneB : 1;
    const shared = rates.sameVolume
      ? 'they share one volume'
      : 'they share a bottleneck (a link, hub or controller)';
    verdict =
      `they interfere: together they keep ${percent(retained)} of their speeds alone ` +
      `(a ${percent(keptA)}, b ${percent(keptB)}); ${shared} that carries about ${formatRate(aggregate)} in all`;
  }
  return { ...rates, aggregate, retained, interferes, message: `${head}; ${verdict}.` };
}
