/** One timed transfer: how many bytes moved and how long it took. */
export interface Transfer {
  bytes: number;
  seconds: number;
}

/**
 * Transfer rate in bytes per second: bytes ÷ seconds. A transfer that took no measurable time
 * has no rate (null) rather than an infinite one, since JSON cannot carry Infinity.
 */
export function transferRate(bytes: number, seconds: number): number | null {
  if (!(seconds > 0) || !Number.isFinite(bytes)) return null;
  return bytes / seconds;
}

/** The rates of the transfers that have one, in their original order. */
export function transferRates(transfers: readonly Transfer[]): number[] {
  const rates: number[] = [];
  for (const transfer of transfers) {
    const rate = transferRate(transfer.bytes, transfer.seconds);
    if (rate !== null) rates.push(rate);
  }
  return rates;
}
