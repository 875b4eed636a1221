/**
 * The CLI's account of a result (`plumb bench`, `read`, `analyze`, `results show`): a finding's
 * reason on an indented line under what was measured, and a fitted line with a negative fixed cost
 * said not to describe the run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeResult } from '../../app/cli/bench/summary.js';
import { findings } from '../../app/core/analysis/findings.js';
import { emptySummary, resultDocument } from './renderer/bench-fixtures.js';

test("a finding's reason is printed under it, indented", () => {
  // A read of 40 files that slows four-fold halfway, found by the engine itself.
  let cumulative = 0;
  const files = Array.from({ length: 40 }, (_, i) => {
    cumulative += 5e8;
    return {
      phase: 'read' as const,
      bytes: 5e8,
      seconds: (5e8 / 2e9) * (i < 20 ? 1 : 4),
      cumulativeBytes: cumulative,
      t: 0,
      temperatureC: null,
    };
  });
  const found = findings({ files, cacheMode: 'direct' });
  const drop = found.find((f) => f.kind === 'cliff');
  assert.ok(drop && drop.kind === 'cliff');
  const lines = describeResult(resultDocument('r', files, {}, found)).split('\n');
  const at = lines.indexOf(`  - cliff: ${drop.message}`);
  assert.ok(at >= 0, lines.join('\n'));
  assert.equal(lines[at + 1], `      Why: ${drop.reason}`);
  assert.doesNotMatch(drop.reason, /writ/);
});

test('a fit with a negative fixed cost is said not to describe the run, with no negative latency', () => {
  const files = [1e7, 2e7].map((bytes, i) => ({
    phase: 'write' as const,
    bytes,
    seconds: 0.01,
    cumulativeBytes: bytes * (i + 1),
    t: 0.01 * (i + 1),
    temperatureC: null,
  }));
  const document = resultDocument('n', files);
  const write = {
    ...emptySummary(2),
    median: 1.5e9,
    theilSen: { rate: 1.5e9, latency: -2.196 },
    linear: { rate: 1.4e9, latency: 0.002, r2: 0.9 },
  };
  const said = describeResult({ ...document, summary: { ...document.summary, write } });
  const line = said.split('\n').find((l) => l.startsWith('Rate, time per file (Theil–Sen)'))!;
  assert.match(line, /the fit does not describe this run \(its intercept is negative\)$/);
  assert.doesNotMatch(said, /-2196|−2196/);
  assert.match(said, /\nRate, time per file \(least squares\) +1\.40 GB\/s, 2\.00 ms, r² 0\.900/);
});
