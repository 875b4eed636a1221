import type { Transfer } from './transfer-rate.js';

/**
 * The rate a run of transfers sustained: all their bytes ÷ all their seconds (a time-weighted
 * mean, so a few quick small files cannot flatter it). Null when no time was measured.
 */
export function aggregateRate(transfers: readonly Transfer[]): number | null {
  let bytes = 0;
  let seconds = 0;
  for (const transfer of transfers) {
    bytes += transfer.bytes;
    seconds += transfer.seconds;
  }
  return seconds > 0 ? bytes / seconds : null;
}
