import { transferColumns, type TransferColumns } from './transfer-columns.js';
import type { Transfer } from './transfer-rate.js';

/**
 * The rate a run of transfers sustained: all their bytes ÷ all their seconds (a time-weighted
 * mean, so a few quick small files cannot flatter it). Null when no time was measured.
 */
export function aggregateRate(transfers: readonly Transfer[]): number | null {
  return aggregateRateOf(transferColumns(transfers));
}

/** aggregateRate of transfers held as columns. */
export function aggregateRateOf(files: TransferColumns): number | null {
  let bytes = 0;
  let seconds = 0;
  for (let i = 0; i < files.bytes.length; i += 1) {
    bytes += files.bytes[i]!;
    seconds += files.seconds[i]!;
  }
  return seconds > 0 ? bytes / seconds : null;
}
