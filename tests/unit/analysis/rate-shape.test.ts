/**
 * The analysis on in-file samples (issues 13 and 23), as properties over random drives: sample
 * streams made the way the built-in `sustained` plan writes (its file sizes, a total like its
 * default) on model drives with a cache cliff, cache tiers, heat throttling or none, drawn at
 * random (tests/helpers/rate-draws.ts), delivered smoothly with noise and stalls or in bursts
 * through a throttle with pauses. Set PLUMB_TEST_SEED to replay a failure; every message carries
 * the seed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findings } from '../../../app/core/analysis/findings.js';
import {
  burstyCacheDraw,
  cliffDraw,
  sawtoothDraw,
  smallCacheDraw,
  steadyDraw,
  stepsDraw,
  unsteadyCacheDraw,
  type Draw,
} from '../../helpers/rate-draws.js';
import {
  baseSeed,
  fileRecords,
  seededRandom,
  sustainedStream,
} from '../../helpers/synthetic-samples.js';

const seed = baseSeed();
const near = (value: number, truth: number, tolerance: number) =>
  Math.abs(value / truth - 1) <= tolerance;
const GB = 1e9;

/**
 * Runs `count` draws from seed `offset` on and holds the analysis right in all but 2 % of them
 * (every miss is printed with its seed). The analysis is statistical and the draws reach the
 * limits of what samples can show (a change a few samples from a stall, a tier a second long
 * behind a throttle's 100 ms slices): `node --import tsx scripts/sweep-rate-shape.ts SEED 2000`
 * finds 0–0.2 % of draws of each kind missed, so more than 2 % of 150–300 draws miss by chance
 * in about one CI run in 1,000 (a draw takes 2–30 ms), while the detector before issue 23 missed
 * 26–34 % of bursty drives.
 */
function mostlyHolds(count: number, offset: number, draw: (random: () => number) => Draw): void {
  const misses: string[] = [];
  for (let k = 0; k < count; k += 1) {
    const made = draw(seededRandom(seed + offset + k));
    const wrong = made.check();
    if (wrong) misses.push(`seed ${seed + offset + k}: ${wrong} (${made.label})`);
  }
  for (const miss of misses) console.log(`# missed: ${miss}`);
  assert.ok(
    misses.length <= 0.02 * count,
    `${misses.length} of ${count} missed:\n${misses.join('\n')}`,
  );
}

describe('rateShape: a cache cliff on samples of the sustained plan', () => {
  it('places the cliff within 5 % and both rates within 10 %, with the sampler issue 13 asks for', () => {
    mostlyHolds(200, 0, (random) => cliffDraw(random));
  });

  it('over the whole range from 0.5 GB when samples are at most 20 MiB apart', () => {
    // At 7 GB/s and 1/1000 of an 800 GB total, a sample every 0.8 GB cannot show a 0.5 GB cache;
    // 20 MiB apart puts 24 samples in it.
    mostlyHolds(150, 1000, (random) => cliffDraw(random, true));
  });

  it('reports every step of a cache that runs out in stages', () => {
    mostlyHolds(200, 2000, stepsDraw);
  });

  it("finds a cache at a real drive's rates behind a throttle that passes chunks in bursts", () => {
    // The issue 23 runs: 700–900 MB/s through the kernel's throttle, which passes chunks at the
    // device's speed and holds every few; a stretch's rate is its bytes over its seconds.
    mostlyHolds(200, 5000, (random) => burstyCacheDraw(random));
  });

  it('finds both tiers of a two-tier cache behind such a throttle', () => {
    mostlyHolds(300, 6000, (random) => burstyCacheDraw(random, 2));
  });

  it('finds a small cache on a small disk, three to nine of the throttle’s slices long', () => {
    // The small-disk sustained test's drive (tests/e2e/cli-bench-small-disk.test.ts): its first
    // slice passed at 4–7 times the cap, the slice the cap fell in charged at the new rate.
    mostlyHolds(400, 10000, smallCacheDraw);
  });

  it('finds every tier when the drive cannot hold its fast tier steadily', () => {
    // The CI run of 2026-12-01: under caps of 700, 432 and 205 MB/s the host disk gave 553, 372
    // and 198, dipping inside the fast tier, and the dips joined to the fast stretch kept its
    // first rate, so the 553 → 372 step was read as no step at all.
    mostlyHolds(200, 9000, unsteadyCacheDraw);
  });

  it("shows a lab review's drive: 592 GB at full speed, then 2.2 GB/s, then 1.0 GB/s", () => {
    const random = seededRandom(seed);
    // A 4 TB drive, mostly free: the plan's default total is 1.6 TB.
    const total = 1.6e12;
    const drive = (bytes: number) =>
      bytes < 592 * GB ? 6.5 * GB : bytes < 900 * GB ? 2.2 * GB : 1 * GB;
    const stream = sustainedStream({ random, totalBytes: total, drive });
    const found = findings({
      files: fileRecords(stream),
      cacheMode: 'direct',
      samples: { write: stream },
    });
    const cliff = found.find((f) => f.kind === 'cliff');
    assert.ok(
      cliff && cliff.kind === 'cliff' && cliff.steps,
      `seed ${seed}: ${JSON.stringify(found)}`,
    );
    const truth = [
      [0, 6.5 * GB],
      [592 * GB, 2.2 * GB],
      [900 * GB, 1 * GB],
    ];
    assert.equal(cliff.steps.length, 3, `seed ${seed}`);
    cliff.steps.forEach((step, k) => {
      const [atBytes, rate] = truth[k]!;
      if (k > 0)
        assert.ok(near(step.atBytes, atBytes!, 0.05), `seed ${seed}: step ${k} at ${step.atBytes}`);
      assert.ok(near(step.rate, rate!, 0.1), `seed ${seed}: step ${k} rate ${step.rate}`);
    });
    assert.match(
      cliff.message,
      /^Write speed fell: about 59\d GB at [67]\.\d+ GB\/s, then [23]\d\d GB at 2\.\d+ GB\/s, then [\d.]+ [MG]B\/s\.$/,
    );
    assert.equal(cliff.afterRate, cliff.steps[1]!.rate);
  });
});

describe('rateShape: heat throttling on samples', () => {
  it('reports a repeating slow-down as throttling with its period and slow share, never a cache', () => {
    mostlyHolds(200, 3000, (random) => sawtoothDraw(random));
    for (let draw = 0; draw < 20; draw += 1) {
      const where = `seed ${seed + 3000 + draw}`;
      const { stream, label } = sawtoothDraw(seededRandom(seed + 3000 + draw));
      const found = findings({
        files: fileRecords(stream),
        cacheMode: 'direct',
        samples: { write: stream },
      });
      const drops = found.filter((f) => f.kind === 'cliff' || f.kind === 'throttling');
      assert.deepEqual(
        drops.map((f) => f.kind),
        ['throttling'],
        `${where}: ${label}`,
      );
      assert.notEqual(drops[0]!.kind === 'throttling' && drops[0]!.cause, 'cache', where);
    }
  });

  it('and when the drive delivers in bursts through a throttle', () => {
    mostlyHolds(200, 7000, (random) => sawtoothDraw(random, true));
  });

  it('names the trial drive: 9 slow-downs in 35 s', () => {
    const random = seededRandom(seed);
    const period = 35 / 9;
    const drive = (_bytes: number, seconds: number) =>
      (seconds / period) % 1 < 0.4 ? 0.6 * GB : 2.3 * GB;
    const stream = sustainedStream({
      random,
      totalBytes: 35 * (0.4 * 0.6 + 0.6 * 2.3) * GB,
      drive,
    });
    const [finding] = findings({
      files: fileRecords(stream),
      cacheMode: 'direct',
      samples: { write: stream },
      recoverySeconds: 30,
    }).filter((f) => f.kind === 'throttling');
    assert.ok(finding && finding.kind === 'throttling' && finding.repeating, `seed ${seed}`);
    assert.ok(finding.repeating.count >= 8, `seed ${seed}: ${finding.repeating.count}`);
    assert.ok(
      near(finding.repeating.periodSeconds, period, 0.1),
      `seed ${seed}: ${finding.repeating.periodSeconds}`,
    );
    assert.equal(finding.cause, 'thermal');
    assert.match(
      finding.message,
      /^Write speed fell from 2\.\d+ GB\/s to \d+ MB\/s \d+ times, about every 3\.\d s/,
    );
    assert.match(finding.reason, /a full write cache stays slow until writing stops/);
  });
});

describe('rateShape: a steady drive', () => {
  it('shows no cliff and no throttling, with noise and stalls, over many draws', () => {
    mostlyHolds(300, 4000, (random) => steadyDraw(random));
  });

  it('nor when it delivers in bursts and pauses now and then', () => {
    mostlyHolds(200, 8000, (random) => steadyDraw(random, true));
  });
});
