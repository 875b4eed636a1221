/**
 * The analysis made O(n log n) (issue 24) gives the same documents as before on every input the
 * old code could finish: random CSVs analysed by the current sources and by the sources of
 * `before`, with the files this change rewrote put back as they were (the rest, the cliff and
 * headline rules included, is today's in both, so later changes to them do not break this).
 * PLUMB_TEST_SEED replays a draw.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { analyzeCsvText } from '../../../app/core/bench/analyze.js';
import { newSeed, seededRandom } from '../../../app/core/bench/seeded-random.js';
import { repoRoot } from '../../helpers/cli.js';
import { transferRows } from '../../helpers/transfer-rows.js';

/** The commit before the change. */
const beforeCommit = '343f383';
/** The files the change rewrote (every other file is the same in both analyses). */
const rewritten = [
  'app/core/analysis/cache-cliff.ts',
  'app/core/analysis/least-squares.ts',
  'app/core/analysis/per-size-medians.ts',
  'app/core/analysis/phase-summary.ts',
  'app/core/analysis/size-adjusted-spread.ts',
  'app/core/analysis/slope-selection.ts',
  'app/core/analysis/theil-sen.ts',
  'app/core/analysis/transfers-csv.ts',
  'app/core/analysis/trimmed-mean.ts',
  'app/core/analysis/two-modes.ts',
  'app/core/bench/analyze.ts',
  'app/core/bench/build-result.ts',
];

function sourceBefore(file: string): string | null {
  try {
    return execFileSync('git', ['show', `${beforeCommit}:${file}`], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return null;
  }
}

const oldSources = rewritten.map((file) => [file, sourceBefore(file)] as const);
const missing = oldSources.filter(([, source]) => source === null).map(([file]) => file);
const skip = missing.length
  ? `the sources of ${beforeCommit} are not in this checkout (${missing[0]}): a copy without git history`
  : false;

let overlay: string;
let analyzeBefore: typeof analyzeCsvText;
before(async () => {
  if (skip) return;
  overlay = mkdtempSync(path.join(os.tmpdir(), 'plumb-analysis-before-'));
  cpSync(path.join(repoRoot, 'app'), path.join(overlay, 'app'), { recursive: true });
  cpSync(path.join(repoRoot, 'package.json'), path.join(overlay, 'package.json'));
  for (const [file, source] of oldSources) writeFileSync(path.join(overlay, file), source!);
  // The old sources import the results document from contract/bench.ts, where it then was.
  appendFileSync(
    path.join(overlay, 'app/contract/bench.ts'),
    "export * from './bench-result.js';\n",
  );
  // Today's callers fit columns; the old fit, called from columns.
  writeFileSync(
    path.join(overlay, 'app/core/analysis/theil-sen.ts'),
    `${sourceBefore('app/core/analysis/theil-sen.ts')!}
export function theilSenOf(xs: Float64Array, ys: Float64Array): LineFit | null {
  return theilSen(Array.from(xs, (x, i) => [x, ys[i]!] as const));
}
`,
  );
  // Today's findings hold the files as columns; the old detector and ratios, called from columns.
  appendFileSync(
    path.join(overlay, 'app/core/analysis/cache-cliff.ts'),
    `
export function cacheCliffOf(
  s: { bytes: Float64Array; seconds: Float64Array; cumulativeBytes: Float64Array; t: Float64Array },
  options?: CliffOptions,
): CacheCliff | null {
  return cacheCliff(
    Array.from(s.bytes, (bytes, i) => ({
      bytes,
      seconds: s.seconds[i]!,
      cumulativeBytes: s.cumulativeBytes[i]!,
      t: Number.isNaN(s.t[i]) ? null : s.t[i]!,
    })),
    options,
  );
}
`,
  );
  appendFileSync(
    path.join(overlay, 'app/core/analysis/size-adjusted-spread.ts'),
    `
const rows = (s: { bytes: Float64Array; seconds: Float64Array }) =>
  Array.from(s.bytes, (bytes, i) => ({ bytes, seconds: s.seconds[i]! }));
export function sizeAdjustedRatiosOf(
  s: { bytes: Float64Array; seconds: Float64Array },
  fit: LineFit | null,
): Float64Array {
  return Float64Array.from(sizeAdjustedRatios(rows(s), fit), (r) => r ?? Number.NaN);
}
export function sizeAdjustedSpreadOf(
  s: { bytes: Float64Array; seconds: Float64Array },
  fit: LineFit | null,
): number | null {
  return sizeAdjustedSpread(rows(s), fit);
}
`,
  );
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(overlay, 'node_modules'));
  ({ analyzeCsvText: analyzeBefore } = (await import(
    path.join(overlay, 'app/core/bench/analyze.ts')
  )) as { analyzeCsvText: typeof analyzeCsvText });
});
after(() => {
  if (overlay) rmSync(overlay, { recursive: true, force: true });
});

const seed = Number(process.env.PLUMB_TEST_SEED ?? newSeed());
console.log(`# seed ${seed} (replay with PLUMB_TEST_SEED=${seed})`);

/**
 * The document less the moment it was made, and less the ceiling it records as checked (added to
 * analyze.ts after the change; the old analyze.ts put back here does not record it).
 */
function comparable(document: ReturnType<typeof analyzeCsvText>) {
  const { ceiling: _recorded, ...environment } = document.environment;
  return { ...document, environment, startedAt: undefined };
}

describe('analysis of a CSV, before and after it was made O(n log n)', { skip }, () => {
  it('compares with the old sources (they took 0x10 for a number, which is now refused)', () => {
    const options = { appVersion: 'test' };
    assert.equal(analyzeBefore('0x10,1\n', options).files[0]!.bytes, 16);
    assert.throws(() => analyzeCsvText('0x10,1\n', options), /Line 1 of the CSV/);
  });

  it('gives the same document for random CSVs of equal and varied sizes', () => {
    const random = seededRandom(seed);
    for (let trial = 0; trial < 40; trial += 1) {
      const sizes = trial % 2 === 0 ? 'equal' : 'varied';
      // Up to 2,000 rows: the old size-adjusted ratios were quadratic in rows of one size.
      const rows = 1 + Math.floor(random() ** 2 * 2000);
      const csv = transferRows(rows, sizes, random);
      const phase = random() < 0.5 ? 'write' : 'read';
      const options = { appVersion: 'test', phase } as const;
      assert.deepEqual(
        comparable(analyzeCsvText(csv, options)),
        comparable(analyzeBefore(csv, options)),
        `trial ${trial}: ${rows} rows of ${sizes} sizes`,
      );
    }
  });
});
