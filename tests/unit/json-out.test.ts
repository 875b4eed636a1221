import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { jsonBatches, jsonPieces, LazyItems, writeJson } from '../../app/core/json-out.js';

const file = (i: number) => ({
  path: `/data/d${i % 7}/f${i} "quoted" \\ é 😀\n.bin`,
  size: i * 1000,
  mtimeMs: 1795319717872.0488 + i,
  links: 1,
  reclaimableBytes: i % 3 === 0 ? null : i,
  alreadyClone: i % 2 === 0,
});

/** A scan-like document: a large array of groups, empty and nested values, skipped values. */
const documents: unknown[] = [
  {
    scanId: 'x',
    files: 3,
    groups: Array.from({ length: 700 }, (_, g) => ({
      id: `g${g}`,
      files: [file(g), file(g + 1)],
      note: g % 5 === 0 ? undefined : 'a note',
    })),
    empty: [],
    none: {},
    onlySkipped: { a: undefined, f: () => 1 },
    sparseArray: [1, undefined, () => 2, null],
    when: new Date(0),
    skipped: { symlinks: 0, unreadable: 2 },
  },
  { scan: { groups: [file(1)], totals: { a: 1 } }, dedupe: { actions: [], counts: { done: 0 } } },
  // Items made only as they are written (a CSV's files held as columns).
  {
    files: new LazyItems(100, (start, end) =>
      Array.from({ length: end - start }, (_, k) => file(start + k)),
    ),
    none: new LazyItems(0, () => []),
  },
  [],
  {},
  'text',
  42,
  null,
];

test('jsonPieces joins to exactly what JSON.stringify(value, null, 2) prints, at any level', () => {
  for (const doc of documents) {
    for (const levels of [0, 1, 2, 3, 5]) {
      assert.equal([...jsonPieces(doc, levels)].join(''), JSON.stringify(doc, null, 2));
    }
  }
});

test('compact, they join to exactly what JSON.stringify(value) prints, in pieces or batches', () => {
  for (const doc of documents) {
    for (const levels of [0, 1, 2, 3, 5]) {
      assert.equal([...jsonPieces(doc, levels, true)].join(''), JSON.stringify(doc));
      assert.equal([...jsonBatches(doc, levels, true)].join(''), JSON.stringify(doc));
    }
  }
});

test('jsonBatches joins pieces into strings of at least 16 K characters, one piece over at most', () => {
  const batches = [...jsonBatches(documents[0], 2, true)];
  const largestPiece = Math.max(...[...jsonPieces(documents[0], 2, true)].map((p) => p.length));
  assert.ok(batches.length > 3, `${batches.length} batches`);
  for (const batch of batches.slice(0, -1)) {
    assert.ok(batch.length >= 16384 && batch.length < 16384 + largestPiece, `${batch.length}`);
  }
});

test('jsonPieces keeps each piece small when a large array is opened', () => {
  const pieces = [...jsonPieces(documents[0], 2)];
  const whole = JSON.stringify(documents[0], null, 2).length;
  assert.ok(pieces.length > 3);
  assert.ok(Math.max(...pieces.map((p) => p.length)) < whole / 2);
});

test('writeJson prints the document and a line break, waiting for a slow stream to drain', async () => {
  const stream = new PassThrough({ highWaterMark: 1024 });
  const chunks: Buffer[] = [];
  const done = writeJson(stream, documents[0], 2);
  // Read only after the writer had to wait: it must not lose or reorder anything meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 20));
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  await done;
  stream.end();
  await new Promise((resolve) => stream.on('end', resolve));
  assert.equal(
    Buffer.concat(chunks).toString('utf8'),
    `${JSON.stringify(documents[0], null, 2)}\n`,
  );
});
