/**
 * Printing a large JSON document (a scan with thousands of groups) piece by piece: the output is
 * exactly `JSON.stringify(value, null, 2)`, but no string of the whole document is built, so peak
 * memory does not grow with the size of the output.
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
function textAt(value: unknown, depth: number): string {
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

function isOpenable(value: unknown): value is object {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/**
 * Pieces that join to `JSON.stringify(value, null, 2)`. Objects are opened `levels` levels down;
 * an array met there is stringified `itemsPerPiece` items at a time; anything else whole.
 */
export function* jsonPieces(value: unknown, levels: number, depth = 0): Generator<string> {
  if (levels <= 0 || !isOpenable(value)) {
    yield textAt(value, depth);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield '[]';
      return;
    }
    const closing = `\n${indentOf(depth)}]`;
    for (let start = 0; start < value.length; start += itemsPerPiece) {
      const text = textAt(value.slice(start, start + itemsPerPiece), depth);
      // "[\n    item,\n    item\n  ]": keep what is between the brackets.
      yield `${start === 0 ? '[' : ','}${text.slice(1, text.length - closing.length)}`;
    }
    yield closing;
    return;
  }
  const inner = indentOf(depth + 1);
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (isSkipped(item)) continue;
    yield `${first ? '{' : ','}\n${inner}${JSON.stringify(key)}: `;
    first = false;
    yield* jsonPieces(item, levels - 1, depth + 1);
  }
  yield first ? '{}' : `\n${indentOf(depth)}}`;
}

function writeChunk(stream: NodeJS.WritableStream, chunk: string): Promise<void> | undefined {
  if (stream.write(chunk) !== false) return undefined;
  return new Promise((resolve) => stream.once('drain', () => resolve()));
}

/**
 * Writes `JSON.stringify(value, null, 2)` and a line break to `stream` in pieces of about 64 KB,
 * opening `levels` levels of objects to find the large arrays.
 */
export async function writeJson(
  stream: NodeJS.WritableStream,
  value: unknown,
  levels: number,
): Promise<void> {
  let batch = '';
  for (const piece of jsonPieces(value, levels)) {
    batch += piece;
    if (batch.length >= batchChars) {
      await writeChunk(stream, batch);
      batch = '';
    }
  }
  await writeChunk(stream, `${batch}\n`);
}
