import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../../app/contract/bench-result.js';
import { listItem } from '../../../app/core/bench/results-store.js';
import {
  comparisonRows,
  overlaySeries,
  resultTitle,
} from '../../../renderer/src/ui/result/compare.js';
import { describeFinding, orderFindings } from '../../../renderer/src/ui/result/findings-text.js';
import { headlineRates } from '../../../app/common/headline-rate.js';
import { summaryRows } from '../../../renderer/src/ui/result/summary-table.js';
import { plainVerdict } from '../../../renderer/src/ui/result/verdict-sections.js';
import { formatIops } from '../../../app/common/format.js';
import { seededRandom } from '../../../app/core/bench/seeded-random.js';
import { baseSeed } from '../../helpers/synthetic-samples.js';
import { emptySummary, modelFiles, resultDocument } from './bench-fixtures.js';

const GB = 1e9;

test('the summary table leads with the headline, then a row for every method', () => {
  const write = {
    ...emptySummary(160),
    mean: 2.1 * GB,
    median: 2.26 * GB,
    min: 0.4 * GB,
    max: 2.5 * GB,
    trimmedMean: { rate: 2.2 * GB, p20: 2.0 * GB, p80: 2.4 * GB },
    theilSen: { rate: 2.3 * GB, latency: 0.0021 },
    linear: { rate: 2.28 * GB, latency: 0.0025, r2: 0.9987 },
  };
  const rows = summaryRows({
    summary: { write, read: emptySummary(0) },
    headline: {
      write: { rate: 2.3 * GB, basis: 'steady rate of 40 files of 2 MB or more' },
      read: { rate: null, basis: 'no read files' },
    },
  });
  assert.deepEqual(
    rows.map((r) => r.method),
    [
      'Headline',
      'Files',
      'Mean',
      'Median',
      'Range',
      'Trimmed mean (20 %)',
      'Theil-Sen rate',
      'Theil-Sen latency',
      'Linear rate',
      'Linear latency',
      'Linear r²',
    ],
  );
  const byMethod = Object.fromEntries(
    rows.map((r) => [r.method, { write: r.write.value, read: r.read.value }]),
  );
  assert.deepEqual(rows[0]!.write, {
    value: '2.30 GB/s',
    note: 'steady rate of 40 files of 2 MB or more',
  });
  // Only the headline row calls itself the headline.
  assert.deepEqual(
    rows.filter((r) => /headline/i.test(r.meaning)).map((r) => r.method),
    ['Headline'],
  );
  assert.equal(byMethod['Median']!.write, '2.26 GB/s');
  assert.equal(byMethod['Range']!.write, '400 MB/s – 2.50 GB/s');
  assert.equal(byMethod['Trimmed mean (20 %)']!.write, '2.20 GB/s (2.00 GB/s – 2.40 GB/s)');
  assert.equal(byMethod['Theil-Sen latency']!.write, '2.10 ms');
  assert.equal(byMethod['Linear r²']!.write, '0.9987');
  assert.equal(byMethod['Files']!.read, '0');
  assert.equal(byMethod['Median']!.read, '—');
});

test('a fit with a negative fixed cost is said not to describe the run, never shown as a latency', () => {
  const write = {
    ...emptySummary(40),
    median: 356e6,
    theilSen: { rate: 1.5 * GB, latency: -2.196 },
    linear: { rate: 1.2 * GB, latency: 0.004, r2: 0.9 },
  };
  const rows = summaryRows({ summary: { write, read: emptySummary(0) } });
  const byMethod = Object.fromEntries(rows.map((r) => [r.method, r.write]));
  assert.deepEqual(byMethod['Theil-Sen rate'], {
    value: '—',
    note: 'the fit does not describe this run',
  });
  assert.deepEqual(byMethod['Theil-Sen latency'], {
    value: '—',
    note: 'its intercept is negative',
  });
  assert.ok(!rows.some((r) => /−|-\d/.test(r.write.value)), 'no negative figure is shown');
  assert.equal(byMethod['Linear latency']!.value, '4.00 ms');
  // A slope that is not positive (larger files faster) is no rate, so its intercept is no latency.
  const flat = summaryRows({
    summary: {
      write: { ...write, theilSen: { rate: null, latency: 0.0397 } },
      read: emptySummary(0),
    },
  });
  const flatBy = Object.fromEntries(flat.map((r) => [r.method, r.write]));
  assert.equal(flatBy['Theil-Sen rate']!.note, 'the fit does not describe this run');
  assert.deepEqual(flatBy['Theil-Sen latency'], {
    value: '—',
    note: 'time did not grow with size',
  });
});

test('headline rates fall back to the best queue-depth run when no files were timed', () => {
  const document = resultDocument('q', [], {
    runs: [
      {
        name: 'SEQ1M Q8T1 read',
        op: 'read',
        blockSize: 1 << 20,
        queueDepth: 8,
        threads: 1,
        bytesPerSecond: 1.6 * GB,
        iops: 1500,
        latency: { p50: 0.005, p99: 0.01, p999: 0.02 },
        samples: [],
      },
      {
        name: 'RND4K Q1T1 write',
        op: 'randwrite',
        blockSize: 4096,
        queueDepth: 1,
        threads: 1,
        bytesPerSecond: 0.04 * GB,
        iops: 9000,
        latency: { p50: 1e-4, p99: 2e-4, p999: 5e-4 },
        samples: [],
      },
    ],
  });
  assert.deepEqual(headlineRates(document), { write: 0.04 * GB, read: 1.6 * GB });
});

const cliff: Finding = {
  kind: 'cliff',
  phase: 'write',
  message:
    'the write rate fell from 5.50 GB/s to 1.40 GB/s after 50.0 GB; the drop came after a fixed amount of data',
  atBytes: 50e9,
  atSeconds: 9,
  beforeRate: 5.5 * GB,
  afterRate: 1.4 * GB,
  confidence: 0.9,
  cause: 'cache',
  reason: 'fixed amount',
  recoverySeconds: 240,
};
const small: Finding = {
  kind: 'small-files',
  phase: 'write',
  message: '3 write file(s) are small',
  count: 3,
  thresholdBytes: 2e6,
};
const bimodal: Finding = {
  kind: 'bimodal',
  phase: 'read',
  message: 'two groups',
  modes: [],
  ashmansD: 3,
};

test('findings read in plain words, with the recovery time when the engine measured one', () => {
  const text = describeFinding(cliff);
  assert.equal(text.title, 'Write cache ran out');
  assert.equal(text.tone, 'warning');
  assert.match(
    text.sentence,
    /^The write rate fell from 5\.50 GB\/s to 1\.40 GB\/s after 50\.0 GB/,
  );
  assert.match(text.sentence, /It took 4 min to recover\.$/);
  assert.equal(describeFinding({ ...cliff, cause: 'thermal' }).title, 'Thermal throttling');
});

test('findings are ordered warnings first, keeping their order otherwise', () => {
  assert.deepEqual(orderFindings([small, bimodal, cliff]), [cliff, bimodal, small]);
});

const one = resultDocument(
  'a',
  modelFiles({
    sizes: [1e9, 2e9],
    fastRate: 2 * GB,
    slowRate: 2 * GB,
    cacheBytes: 1e12,
    readRate: 3 * GB,
    latencySeconds: 0,
  }),
);
const two = resultDocument(
  'b',
  modelFiles({
    sizes: [1e9, 2e9],
    fastRate: 1 * GB,
    slowRate: 1 * GB,
    cacheBytes: 1e12,
    readRate: 1.5 * GB,
    latencySeconds: 0,
  }),
  { name: 'Envoy on the dock' },
);

test('compared results get one coloured series per phase and a relative figure', () => {
  const series = overlaySeries([one, two], 'cumulative');
  assert.deepEqual(
    series.map((s) => [s.label, s.phase, s.points.length]),
    [
      ['Standard · fast — write', 'write', 2],
      ['Standard · fast — read', 'read', 2],
      ['Envoy on the dock — write', 'write', 2],
      ['Envoy on the dock — read', 'read', 2],
    ],
  );
  assert.equal(series[0]!.color, series[1]!.color);
  assert.notEqual(series[0]!.color, series[2]!.color);
  const rows = comparisonRows([one, two]);
  assert.equal(rows[0]!.writeRelative, 1);
  assert.ok(Math.abs(rows[1]!.writeRelative! - 0.5) < 1e-9);
  assert.ok(Math.abs(rows[1]!.readRelative! - 0.5) < 1e-9);
  assert.equal(resultTitle(two), 'Envoy on the dock');
});

test('a run whose capacity check failed says so in the compare view and the results list', () => {
  const failed = {
    ...two,
    verify: {
      files: 2,
      filesNotChecked: 0,
      bytesChecked: 3e9,
      badBytes: 1e9,
      firstBad: null,
      verdict: 'failed' as const,
      message: '1 GB did not come back as written.',
      seconds: 2,
    },
  };
  const rows = comparisonRows([
    one,
    failed,
    { ...failed, verify: { ...failed.verify, verdict: 'passed' as const } },
  ]);
  assert.deepEqual(
    rows.map((row) => row.capacity),
    [
      null,
      { verdict: 'failed', label: 'Capacity check failed' },
      { verdict: 'passed', label: 'Capacity checked' },
    ],
  );
  assert.equal(listItem(failed).capacityCheck, 'failed');
  assert.equal('capacityCheck' in listItem(one), false, 'a run without the check says nothing');
});

test('a queue-depth run is summed up by its best rates; the random ones give their QD1 figure too', async () => {
  const { queueHeadlines } = await import('../../../renderer/src/ui/result/summary-table.js');
  const run = (
    name: string,
    op: 'read' | 'write' | 'randread' | 'randwrite',
    queueDepth: number,
    bytesPerSecond: number,
  ) => ({
    name,
    op,
    blockSize: op.startsWith('rand') ? 4096 : 1 << 20,
    queueDepth,
    threads: 1,
    bytesPerSecond,
    iops: bytesPerSecond / (op.startsWith('rand') ? 4096 : 1 << 20),
    latency: { p50: 1e-4, p99: 1e-3, p999: 2e-3 },
    samples: [],
  });
  const runs = [
    run('SEQ1M Q8T1 read', 'read', 8, 1.686e9),
    run('SEQ1M Q1T1 read', 'read', 1, 1.45e9),
    run('RND4K Q32T1 read', 'randread', 32, 1.14e9),
    run('RND4K Q1T1 read', 'randread', 1, 64e6),
    run('SEQ1M Q8T1 write', 'write', 8, 1.479e9),
  ];
  const tiles = queueHeadlines(runs);
  assert.deepEqual(
    tiles.map((t) => [t.label, t.value, t.note]),
    [
      ['Sequential read', '1.69 GB/s', 'SEQ1M Q8T1 read'],
      ['Sequential write', '1.48 GB/s', 'SEQ1M Q8T1 write'],
      [
        'Random read',
        '278 k IOPS',
        'RND4K Q32T1 read · 1.14 GB/s; 16 k IOPS one request at a time',
      ],
    ],
  );
  // "At its best" names the best of each kind the grid on the same page shows (issue 23: it
  // gave the QD1 figure beside a QD32 one four times higher).
  const document = resultDocument('grid', [], { runs });
  const said = plainVerdict(document);
  assert.equal(
    said,
    'At its best in the grid below, this disk managed sequential read 1.69 GB/s, sequential write 1.48 GB/s and random read 278 k IOPS (16 k IOPS one request at a time).',
  );
  // Whatever the figures: each figure said "at its best" is the highest of its kind.
  const random = seededRandom(baseSeed());
  for (let trial = 0; trial < 20; trial += 1) {
    const drawn = ['Q1T1', 'Q8T1', 'Q32T1'].map((qd, k) =>
      run(`RND4K ${qd} write`, 'randwrite', [1, 8, 32][k]!, (5 + random() * 2000) * 1e6),
    );
    const top = Math.max(...drawn.map((r) => r.iops));
    const tile = queueHeadlines(drawn).find((t) => t.label === 'Random write')!;
    assert.equal(tile.value, formatIops(top));
  }
});
