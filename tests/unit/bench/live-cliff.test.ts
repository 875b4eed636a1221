import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Finding } from '../../../app/contract/bench-result.js';
import type { SeriesPoint } from '../../../app/core/analysis/transfer-columns.js';
import { LiveCliffWatch, liveCliffFinding } from '../../../app/core/bench/live-cliff.js';
import { seededRandom } from '../../../app/core/bench/seeded-random.js';

/** Files of 1–10 MB at `fast` until `cliffBytes`, then at `slow`, with ±`noise` on each time. */
function* drive(options: { files: number; cliffBytes: number; noise: number; seed: number }) {
  const random = seededRandom(options.seed);
  let cumulativeBytes = 0;
  let t = 0;
  for (let i = 0; i < options.files; i += 1) {
    const bytes = Math.round(1e6 + random() * 9e6);
    const fastBytes = Math.max(0, Math.min(bytes, options.cliffBytes - cumulativeBytes));
    const ideal = fastBytes / 2e9 + (bytes - fastBytes) / 0.5e9;
    const seconds = ideal * (1 + options.noise * (2 * random() - 1));
    cumulativeBytes += bytes;
    t += seconds;
    yield { bytes, seconds, cumulativeBytes, t } satisfies SeriesPoint;
  }
}

describe('LiveCliffWatch', () => {
  it('reports a cliff soon after it happens, once, within 5 % of its place', () => {
    const watch = new LiveCliffWatch();
    const cliffBytes = 1e9; // about file 180 of 400
    const reports: number[] = [];
    for (const point of drive({ files: 400, cliffBytes, noise: 0.1, seed: 1 })) {
      const cliff = watch.add(point);
      if (cliff) reports.push(cliff.atBytes);
    }
    assert.equal(reports.length, 1, JSON.stringify(reports));
    assert.ok(Math.abs(reports[0]! - cliffBytes) < 0.05 * cliffBytes, `at ${reports[0]}`);
  });

  it('marks the cliff within a few files of it', () => {
    const watch = new LiveCliffWatch();
    const cliffBytes = 0.3e9;
    let seenAt: number | null = null;
    let passedAt: number | null = null;
    let index = 0;
    for (const point of drive({ files: 150, cliffBytes, noise: 0.1, seed: 2 })) {
      if (passedAt === null && point.cumulativeBytes >= cliffBytes) passedAt = index;
      if (watch.add(point) && seenAt === null) seenAt = index;
      index += 1;
    }
    assert.ok(passedAt !== null && seenAt !== null, `passed ${passedAt}, seen ${seenAt}`);
    assert.ok(seenAt - passedAt <= 8, `seen ${seenAt - passedAt} files after the cliff`);
  });

  it('reports nothing on a flat, noisy series', () => {
    const watch = new LiveCliffWatch();
    for (const point of drive({ files: 500, cliffBytes: Infinity, noise: 0.3, seed: 3 }))
      assert.equal(watch.add(point), null);
  });

  it('stays cheap over 10,000 files', () => {
    const watch = new LiveCliffWatch();
    const started = performance.now();
    let reports = 0;
    for (const point of drive({ files: 10_000, cliffBytes: 20e9, noise: 0.1, seed: 4 }))
      if (watch.add(point)) reports += 1;
    const seconds = (performance.now() - started) / 1000;
    // Every file up to 100, then about 100 checks per tenfold growth: a few hundred in all.
    assert.ok(watch.checks < 700, `${watch.checks} checks`);
    assert.ok(reports >= 1 && reports <= 3, `${reports} reports`);
    // Measured: 517 checks in 2.6 s on a shared 2-core machine (the detector is O(n log n), 17 ms at
    // 10,000 points), about 0.3 ms a file; the bound is generous for a busy machine.
    assert.ok(seconds < 10, `${seconds.toFixed(2)} s for 10,000 files`);
  });

  it('words the live finding as the contract wants it, cause left to the end', () => {
    const finding = liveCliffFinding('write', {
      atBytes: 50e9,
      atSeconds: 20,
      beforeRate: 5.5e9,
      afterRate: 1.4e9,
      confidence: 1,
      measured: 'fell from 5.50 GB/s to 1.40 GB/s after 50.0 GB',
    });
    assert.deepEqual(Finding.parse(finding), finding);
    assert.equal(finding.cause, 'unknown');
    assert.match(
      finding.message,
      /^Write speed fell from 5\.50 GB\/s to 1\.40 GB\/s after 50\.0 GB\. \(Found during the run/,
    );
  });
});
