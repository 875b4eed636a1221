import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResultsRoute } from '../../../renderer/src/screens/bench/routes.js';
import {
  fileRows,
  nextSort,
  sortFileRows,
  visibleRows,
} from '../../../renderer/src/ui/file-table.js';
import { modelFiles } from './bench-fixtures.js';

const rows = fileRows(
  modelFiles({
    sizes: [3e6, 1e9, 2e8],
    fastRate: 2e9,
    slowRate: 2e9,
    cacheBytes: 1e12,
    readRate: 3e9,
    latencySeconds: 0.002,
  }),
);

test('rows keep the run order and compute each rate', () => {
  assert.deepEqual(
    rows.map((r) => [r.order, r.phase, r.bytes]),
    [
      [1, 'write', 3e6],
      [2, 'write', 1e9],
      [3, 'write', 2e8],
      [4, 'read', 3e6],
      [5, 'read', 1e9],
      [6, 'read', 2e8],
    ],
  );
  assert.ok(Math.abs(rows[1]!.rate! - 1e9 / (0.002 + 0.5)) < 1e-3);
});

test('sorting by rate puts the fastest first, then by size ascending, stable on ties', () => {
  const byRate = sortFileRows(rows, { column: 'rate', direction: 'descending' });
  assert.deepEqual(
    byRate.map((r) => r.order),
    [5, 6, 2, 3, 4, 1],
  );
  const bySize = sortFileRows(rows, { column: 'bytes', direction: 'ascending' });
  assert.deepEqual(
    bySize.map((r) => r.order),
    [1, 4, 3, 6, 2, 5],
  );
});

test('a missing rate sorts last in either direction', () => {
  const withGap = [...rows, { ...rows[0]!, order: 7, rate: null }];
  assert.equal(sortFileRows(withGap, { column: 'rate', direction: 'ascending' }).at(-1)!.order, 7);
  assert.equal(sortFileRows(withGap, { column: 'rate', direction: 'descending' }).at(-1)!.order, 7);
});

test('clicking a header sorts by it, clicking again reverses', () => {
  const first = nextSort({ column: 'order', direction: 'ascending' }, 'rate');
  assert.deepEqual(first, { column: 'rate', direction: 'descending' });
  assert.deepEqual(nextSort(first, 'rate'), { column: 'rate', direction: 'ascending' });
  assert.deepEqual(nextSort(first, 't'), { column: 't', direction: 'ascending' });
});

test('only the rows in view (and a few either side) are drawn', () => {
  assert.deepEqual(visibleRows(10_000, 30, 0, 300, 5), {
    first: 0,
    last: 15,
    offsetTop: 0,
    totalHeight: 300_000,
  });
  assert.deepEqual(visibleRows(10_000, 30, 3000, 300, 5), {
    first: 95,
    last: 115,
    offsetTop: 2850,
    totalHeight: 300_000,
  });
  assert.deepEqual(visibleRows(20, 30, 900, 300, 5), {
    first: 20,
    last: 20,
    offsetTop: 600,
    totalHeight: 600,
  });
});

test('results addresses round-trip: list, one result, a comparison', async () => {
  const { parseResultsRoute, resultsHash } =
    await import('../../../renderer/src/screens/bench/routes.js');
  assert.deepEqual(parseResultsRoute('#/results'), { kind: 'list' });
  assert.deepEqual(parseResultsRoute('#/results/20251122-100000-ab12'), {
    kind: 'result',
    id: '20251122-100000-ab12',
  });
  assert.deepEqual(parseResultsRoute('#/results/compare/a,b'), {
    kind: 'compare',
    ids: ['a', 'b'],
  });
  assert.deepEqual(parseResultsRoute('#/results/compare/a'), { kind: 'list' });
  const routes: ResultsRoute[] = [
    { kind: 'list' },
    { kind: 'result', id: 'x y' },
    { kind: 'compare', ids: ['a', 'b', 'c'] },
  ];
  for (const route of routes) assert.deepEqual(parseResultsRoute(resultsHash(route)), route);
});
