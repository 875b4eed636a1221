import { PlumbError } from '../../contract/errors.js';

export interface CsvTransfer {
  bytes: number;
  seconds: number;
  cumulativeBytes: number;
}

const header = /^\s*bytes\s*,\s*seconds\s*(,\s*cumulativeBytes\s*)?$/i;
/** A decimal number as tools print one: no hex, octal, binary, Infinity or empty cell (Number() takes them). */
const decimal = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

function cell(text: string): number {
  const trimmed = text.trim();
  return decimal.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The transfers of a CSV as columns, in the order they happened. */
export interface CsvColumns {
  count: number;
  bytes: Float64Array;
  seconds: Float64Array;
  cumulativeBytes: Float64Array;
}

/** A column twice as long, its first `count` values kept. */
function grown(column: Float64Array<ArrayBuffer>, count: number): Float64Array<ArrayBuffer> {
  const longer = new Float64Array(column.length * 2);
  longer.set(column.subarray(0, count));
  return longer;
}

/**
 * Reads `bytes,seconds[,cumulativeBytes]` lines from any tool, one transfer per line, in the order
 * they happened; a header line, blank lines and `#` comments are allowed. Without the third column
 * the cumulative bytes are the running sum. Into columns, 24 bytes a line: a million lines are
 * never a million objects. Throws EINVAL naming the first bad line.
 */
export function readTransferColumns(text: string): CsvColumns {
  let capacity = 1024;
  let bytesColumn = new Float64Array(capacity);
  let secondsColumn = new Float64Array(capacity);
  let cumulativeColumn = new Float64Array(capacity);
  let count = 0;
  let running = 0;
  // Lines as String.split(/\r?\n/) gives them, without holding them all at once.
  for (let start = 0, index = 0; start <= text.length; index += 1) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, newline > start && text[end - 1] === '\r' ? end - 1 : end);
    start = end + 1;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (index === 0 && header.test(line)) continue;
    const cells = line.split(',');
    const bad = () =>
      new PlumbError(
        'EINVAL',
        `Line ${index + 1} of the CSV is not "bytes,seconds[,cumulativeBytes]" with positive decimal numbers: ${JSON.stringify(line.slice(0, 80))}`,
      );
    if (cells.length < 2 || cells.length > 3) throw bad();
    const bytes = cell(cells[0]!);
    const seconds = cell(cells[1]!);
    const cumulative = cells.length === 3 ? cell(cells[2]!) : undefined;
    if (!Number.isFinite(bytes) || !Number.isFinite(seconds)) throw bad();
    if (cumulative !== undefined && !Number.isFinite(cumulative)) throw bad();
    if (bytes <= 0 || seconds < 0 || (cumulative !== undefined && cumulative < bytes)) throw bad();
    running += bytes;
    if (count === capacity) {
      bytesColumn = grown(bytesColumn, count);
      secondsColumn = grown(secondsColumn, count);
      cumulativeColumn = grown(cumulativeColumn, count);
      capacity *= 2;
    }
    bytesColumn[count] = bytes;
    secondsColumn[count] = seconds;
    cumulativeColumn[count] = cumulative ?? running;
    count += 1;
  }
  if (count === 0) {
    throw new PlumbError('EINVAL', 'The CSV holds no transfers: expected lines of bytes,seconds.');
  }
  return {
    count,
    bytes: bytesColumn.slice(0, count),
    seconds: secondsColumn.slice(0, count),
    cumulativeBytes: cumulativeColumn.slice(0, count),
  };
}

/** The transfers of a CSV (readTransferColumns), each made `toRecord(...)`. */
export function parseTransfersCsv<T = CsvTransfer>(
  text: string,
  toRecord: (bytes: number, seconds: number, cumulativeBytes: number) => T = (
    bytes,
    seconds,
    cumulativeBytes,
  ) => ({ bytes, seconds, cumulativeBytes }) as T,
): T[] {
  const { count, bytes, seconds, cumulativeBytes } = readTransferColumns(text);
  return Array.from({ length: count }, (_, i) =>
    toRecord(bytes[i]!, seconds[i]!, cumulativeBytes[i]!),
  );
}
