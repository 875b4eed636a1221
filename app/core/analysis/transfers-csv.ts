import { PlumbError } from '../../contract/errors.js';

export interface CsvTransfer {
  bytes: number;
  seconds: number;
  cumulativeBytes: number;
}

const header = /^\s*bytes\s*,\s*seconds\s*(,\s*cumulativeBytes\s*)?$/i;

/**
 * Reads `bytes,seconds[,cumulativeBytes]` lines from any tool, one transfer per line, in the order
 * they happened; a header line and blank lines are allowed. Without the third column the
 * cumulative bytes are the running sum. Throws EINVAL naming the first bad line.
 */
export function parseTransfersCsv(text: string): CsvTransfer[] {
  const transfers: CsvTransfer[] = [];
  let running = 0;
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    if (index === 0 && header.test(line)) return;
    const cells = line.split(',').map((cell) => cell.trim());
    const numbers = cells.map(Number);
    const bad = () =>
      new PlumbError(
        'EINVAL',
        `Line ${index + 1} of the CSV is not "bytes,seconds[,cumulativeBytes]" with positive numbers: ${JSON.stringify(line.slice(0, 80))}`,
      );
    if (cells.length < 2 || cells.length > 3 || numbers.some((n) => !Number.isFinite(n)))
      throw bad();
    const [bytes, seconds, cumulative] = numbers as [number, number, number | undefined];
    if (bytes <= 0 || seconds < 0 || (cumulative !== undefined && cumulative < bytes)) throw bad();
    running += bytes;
    transfers.push({ bytes, seconds, cumulativeBytes: cumulative ?? running });
  });
  if (transfers.length === 0) {
    throw new PlumbError('EINVAL', 'The CSV holds no transfers: expected lines of bytes,seconds.');
  }
  return transfers;
}
