/**
 * CSV rows of `bytes,seconds` as another tool would log a drive's run, drawn at random from a
 * seed: one file size for every row (a tool writing one size, e.g. 4 MiB chunks) or sizes spread
 * log-uniformly from 10 KB to 2 GB (Plumb's series plan); a fast write cache of a random share of
 * the run, then the slower rate; jitter, and a fixed cost per file.
 */
export type RowSizes = 'equal' | 'varied';

export function transferRows(count: number, sizes: RowSizes, random: () => number): string {
  const fastRate = 1e9 + random() * 2e9;
  const slowRate = fastRate * (0.15 + random() * 0.35);
  const oneSize = 2 ** (12 + Math.floor(random() * 11)); // 4 KiB to 4 MiB
  const fastRows = Math.floor(count * (0.1 + random() * 0.4));
  const latency = 5e-5 + random() * 2.5e-4;
  const lines = ['bytes,seconds'];
  for (let i = 0; i < count; i += 1) {
    const bytes =
      sizes === 'equal' ? oneSize : Math.round(Math.exp(Math.log(1e4) + random() * Math.log(2e5)));
    const rate = i < fastRows ? fastRate : slowRate;
    const seconds = latency + (bytes / rate) * (0.9 + 0.2 * random());
    lines.push(`${bytes},${seconds.toPrecision(9)}`);
  }
  return `${lines.join('\n')}\n`;
}
