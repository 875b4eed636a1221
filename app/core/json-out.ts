/**
 * Writing a large JSON document (a scan with thousands of groups) piece by piece: the output is
 * exactly `JSON.stringify(value, null, 2)` (or `JSON.stringify(value)`, compact), but no string of
 * the whole document is built, so peak memory does not grow with the size of the output. The CLI
 * prints its --json this way; the space view keeps its last scan this way.
 */

/** Array items stringified at once: few calls into JSON.stringify, small pieces. */
const itemsPerPiece = 32;
const batchChars = 16 * 1024;

function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function indentOf(depth: number): string {
  return '  '.repeat(depth);
}

/**
 * `value` stringified as it appears `depth` levels down in an indented document: JSON.stringify
 * indents it that far when it is wrapped in `depth` objects, whose own text is then cut off.
 */
function textAt(value: unknown, depth: number, compact: boolean): string {
  if (compact) return JSON.stringify(value);
  let wrapped: unknown = value;
  for (let i = 0; i < depth; i += 1) wrapped = { k: wrapped };
  const text = JSON.stringify(wrapped, null, 2);
  if (depth === 0) return text;
  let head = 0;
  for (let i = 1; i <= depth; i += 1) head += `{\n${indentOf(i)}"k": `.length;
  let tail = 0;
  for (let i = 0; i < depth; i += 1) tail += `\n${indentOf(i)}}`.length;
  return text.slice(head, text.length - tail);
}

/**
 * An array whose items are made only when written: `make(start, end)` makes items start…end-1.
 * Written piece by piece as a JSON array, it is never held whole; JSON.stringify writes it whole.
 */
export class LazyItems<T> {
  constructor(
    readonly length: number,
    private readonly make: (start: number, end: number) => T[],
  ) {}

  /** Items start…end-1, as Array.slice gives them. */
  slice(start: number, end = this.length): T[] {
    return this.make(start, Math.min(end, this.length));
  }

  toJSON(): T[] {
    return this.slice(0);
  }
}

function isOpenable(value: unknown): value is object {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/**
 * Pieces that join to `JSON.stringify(value, null, 2)`, or to `JSON.stringify(value)` when
 * `compact`. Objects are opened `levels` levels down; an array met there is stringified
 * `itemsPerPiece` items at a time; anything else whole.
 */
export function* jsonPieces(
  value: unknown,
  levels: number,
  compact = false,
  depth = 0,
): Generator<string> {
  if (levels <= 0 || !(value instanceof LazyItems || isOpenable(value))) {
    yield textAt(value, depth, compact);
    return;
  }
  const breakAt = (level: number) => (compact ? '' : `\n${indentOf(level)}`);
  if (Array.isArray(value) || value instanceof LazyItems) {
    if (value.length === 0) {
      yield '[]';
      return;
    }
    const closing = `${breakAt(depth)}]`;
    for (let start = 0; start < value.length; start += itemsPerPiece) {
      const text = textAt(value.slice(start, start + itemsPerPiece), depth, compact);
      // "[\n    item,\n    item\n  ]" (or "[item,item]"): keep what is between the brackets.
      yield `${start === 0 ? '[' : ','}${text.slice(1, text.length - closing.length)}`;
    }
    yield closing;
    return;
  }
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (isSkipped(item)) continue;
    yield `${first ? '{' : ','}${breakAt(depth + 1)}${JSON.stringify(key)}:${compact ? '' : ' '}`;
    first = false;
    yield* jsonPieces(item, levels - 1, compact, depth + 1);
  }
  yield first ? '{}' : `${breakAt(depth)}}`;
}

/** The pieces joined into batches of about `batchChars` characters (few writes, small strings). */
export function* jsonBatches(value: unknown, levels: number, compact = false): Generator<string> {
  let batch = '';
  for (const piece of jsonPieces(value, levels, compact)) {
    batch += piece;
    if (batch.length >= batchChars) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}

/** What an output is written in: text, or bytes (a PDF). */
export type OutputPiece = string | Uint8Array;

/** Resolves when `stream` may take more: at 'drain', or at once when it failed or closed. */
function writeChunk(stream: NodeJS.WritableStream, chunk: OutputPiece): Promise<void> | undefined {
  if (stream.write(chunk) !== false) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('error', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('error', done);
    stream.on('close', done);
  });
}

/**
 * Writes `pieces` to `stream` in order, waiting whenever it asks to (backpressure), and stops
 * early once `failed()` says the stream can take no more (its reader went away).
 */
export async function writePieces(
  stream: NodeJS.WritableStream,
  pieces: Iterable<OutputPiece>,
  failed: () => boolean = () => false,
): Promise<void> {
  for (const piece of pieces) {
    if (failed()) return;
    await writeChunk(stream, piece);
  }
}

/**
 * Writes `JSON.stringify(value, null, 2)` and a line break to `stream` in pieces of about 16 K
 * characters, opening `levels` levels of objects to find the large arrays.
 */
export async function writeJson(
  stream: NodeJS.WritableStream,
  value: unknown,
  levels: number,
): Promise<void> {
  await writePieces(stream, jsonBatches(value, levels));
  await writeChunk(stream, '\n');
}
