// plumb-test: alone (it measures rates or times on a throttled disk; see scripts/test.mjs)
/**
 * The built-in `sustained` plan, unscaled, on a disk that behaves like a real SSD (issue 23): XFS
 * on a direct-I/O loop device under the kernel's block throttle at 700–900 MB/s, falling to
 * 150–250 MB/s after a cache of 0.5–6 GB, with a second tier between them in some runs, and in
 * some a fast tier the drive cannot hold steadily (dips of its own before the cache runs out), all
 * drawn at random (the seed is printed; PLUMB_TEST_SEED replays it). Where this machine's disk
 * cannot write 1.7 times the fastest rate uncapped, every rate is scaled down evenly to fit, and
 * the test says so; a run in which the disk itself fell below 75 % of its caps over some two to
 * four seconds (the samples show it, and the throttle's log of caps) is run once more, and skips,
 * saying so, if the second is spoiled too. The run's total is set with `--total` as a user would, a
 * couple of times the cache. At these rates the throttle passes chunks at the device's own speed
 * and holds every few for tens of milliseconds, which is what the detector once read as a 3 GB/s
 * cache.
 *
 * Plumb must report every step, each within 5 % of where the throttle fell (or the bytes of one
 * 100 ms throttle slice at the rate before, whichever is more: the kernel changes its rate at its
 * next slice) and each rate within 10 % of what the samples show between the true changes, and a
 * headline between the run's slowest and fastest rates. The plan's recovery probe runs as shipped.
 */
import assert from 'node:assert/strict';
import { statfsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { baseSeed, seededRandom, streamRate } from '../helpers/synthetic-samples.js';
import { artifactsDir } from '../helpers/ui-session.js';
import {
  capScale,
  createWriteThrottle,
  runPlumbThrottled,
  throttleSkipReason,
  uncappedWriteRate,
  type WriteThrottle,
} from '../helpers/throttle.js';

const MB = 1e6;
const GB = 1e9;
const seed = baseSeed();
const random = seededRandom(seed);
const between = (low: number, high: number) => low + random() * (high - low);

/** Free space where the loop image lives. */
const freeBytes = (() => {
  const stats = statfsSync(os.tmpdir());
  return stats.bavail * stats.bsize;
})();

const draw = (() => {
  const fast = between(700, 900) * MB;
  const slow = between(150, 250) * MB;
  // The cache as large as 6 GB where the machine's disk leaves room for the run and its image.
  const largest = Math.max(0.6 * GB, Math.min(6 * GB, (freeBytes - 10 * GB) / 4));
  const cache = between(0.5 * GB, largest);
  const tier =
    random() < 0.4
      ? { rate: between(1.6 * slow, 0.7 * fast), bytes: between(0.6 * GB, 2 * GB) }
      : null;
  const changes = tier ? [cache, cache + tier.bytes] : [cache];
  const rates = tier ? [fast, tier.rate, slow] : [fast, slow];
  // As a user sets it: about twice the cache, with a couple of GB after it (under a minute).
  const end = changes.at(-1)!;
  const total = Math.round(end + Math.min(Math.max(end * between(0.6, 1.5), 1.5 * GB), 6 * GB));
  // Room for the run's files, the recovery probe (2 GB) and the free-space guard (10 %), as a
  // user's disk would have.
  const diskBytes = Math.ceil((total + 2 * GB) / 0.85 + GB);
  // In some runs the drive cannot hold its cache's rate steadily (as this VM's disk did under the
  // cap in the CI run of 2026-12-01: 553 MB/s under 700): it dips to 55–80 % for 0.3–2 s at a time,
  // 15–35 % of the time, until two seconds before the cache runs out; only where a middle tier is
  // a clear step below that (60 % of the fast rate at most).
  const dipShare = between(0.15, 0.35);
  const dips =
    random() < 0.4 && changes[0]! > 4 * fast && (!tier || tier.rate <= 0.6 * fast)
      ? { until: changes[0]! - 2 * fast, share: dipShare }
      : null;
  return { changes, rates, total, diskBytes, dips };
})();

const skip =
  loopSkipReason('xfs') ??
  throttleSkipReason() ??
  (freeBytes < draw.diskBytes + 2 * GB
    ? `the temporary folder has ${(freeBytes / GB).toFixed(1)} GB free, and a sustained run at a real drive's sizes needs ${((draw.diskBytes + 2 * GB) / GB).toFixed(1)} GB`
    : undefined);
if (skip) console.log(`# skipping the real-rate sustained test: ${skip}`);

/** The rate the caps allowed from `from` to `to` bytes: each stretch at the cap set before it. */
function cappedRate(caps: readonly { bytes: number; rate: number }[], from: number, to: number) {
  let seconds = 0;
  caps.forEach((cap, k) => {
    const start = Math.max(from, k === 0 ? 0 : cap.bytes);
    const end = Math.min(to, caps[k + 1]?.bytes ?? Infinity);
    if (end > start) seconds += (end - start) / cap.rate;
  });
  return (to - from) / seconds;
}

/**
 * The stretches of a run between the throttle's changes (`fell`), each `margin` slices of the
 * rate on its side clear of a change (0.25: a throttle slice or two).
 */
function stretchBounds(
  fell: readonly number[],
  endBytes: number,
  rates: readonly number[],
  margin: number,
): { from: number; to: number }[] {
  const ends = [...fell, endBytes];
  return ends.map((end, k) => ({
    from: k === 0 ? 0 : ends[k - 1]! + margin * rates[k - 1]!,
    to: k === ends.length - 1 ? end : end - margin * rates[k]!,
  }));
}

/**
 * The stretch of a run in which the disk held its caps least: each of `stretches` cut into pieces
 * of two to four seconds at its cap (a shorter stretch whole), and each piece's rate in the
 * samples set against what the caps allowed there.
 */
function heldCaps(
  samples: Parameters<typeof streamRate>[0],
  caps: readonly { bytes: number; rate: number }[],
  stretches: readonly { from: number; to: number }[],
  rates: readonly number[],
) {
  const pieces = stretches.flatMap(({ from, to }, k) => {
    const count = Math.max(1, Math.floor((to - from) / (2 * rates[k]!)));
    return Array.from({ length: count }, (_, i) => {
      const [a, b] = [from + ((to - from) * i) / count, from + ((to - from) * (i + 1)) / count];
      const [rate, capped] = [streamRate(samples, a, b), cappedRate(caps, a, b)];
      return { from: a, to: b, rate, capped, share: rate / capped };
    });
  });
  return pieces.reduce((least, piece) => (piece.share < least.share ? piece : least));
}

describe('plumb bench sustained at a real SSD’s rates and sizes', { skip }, () => {
  let fs: MountedFs | undefined;
  let throttle: WriteThrottle | undefined;
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'plumb-realrate-'));
    fs = mountLoopFs('xfs', { sizeBytes: draw.diskBytes, directIo: true });
  });
  after(async () => {
    throttle?.remove();
    fs?.unmount();
    await rm(work, { recursive: true, force: true });
  });

  /**
   * One run of the plan under the drawn caps, scaled to what the disk writes now: Plumb's result,
   * where the throttle fell, and what the samples show between those places.
   */
  async function sustainedRun(attempt: number) {
    const { changes, total, dips } = draw;
    const scale = capScale(draw.rates[0]!, uncappedWriteRate(fs!.dir));
    console.log(`# run ${attempt}: ${scale.note}`);
    const rates = draw.rates.map((rate) => rate * scale.factor);
    throttle?.remove();
    throttle = createWriteThrottle(fs!.device!, rates[0]!);
    console.log(
      `# drawn: ${rates.map((r) => (r / MB).toFixed(0)).join(' → ')} MB/s after ${changes.map((c) => (c / GB).toFixed(2)).join(' and ')} GB, --total ${(total / GB).toFixed(2)} GB${dips ? `, dipping ${(dips.share * 100).toFixed(0)} % of the time until ${(dips.until / GB).toFixed(2)} GB` : ''}`,
    );
    const lowered = changes.map((bytes, k) => throttle!.lowerAfter(bytes, rates[k + 1]!));
    const dipping =
      dips &&
      throttle.dipUntil(
        dips.until,
        rates[0]!,
        () => between(0.55, 0.8) * rates[0]!,
        () => between(0.3, 2),
        (length) => length * ((1 - dips.share) / dips.share) * between(0.8, 1.25),
      );
    // Once all of it is written and the disk has been quiet a few seconds, the cache has emptied.
    const allWritten = throttle.lowerAfter(total, rates.at(-1)!);
    let raise: ReturnType<WriteThrottle['raiseAfterIdle']> | undefined;
    void allWritten.done.then(() => (raise = throttle!.raiseAfterIdle(3, 10, rates[0]!)));
    const out = path.join(work, 'result.json');
    const started = performance.now();
    const result = await runPlumbThrottled(
      throttle,
      ['bench', fs!.dir, '--plan', 'sustained', '--total', String(total), '--json', out],
      { PLUMB_DATA_DIR: path.join(work, 'data') },
    );
    lowered.forEach((l) => l.stop());
    dipping?.stop();
    allWritten.stop();
    raise?.stop();
    console.log(`# the run took ${((performance.now() - started) / 1000).toFixed(0)} s`);
    assert.equal(result.status, 0, result.stderr);
    const truth = await Promise.all(
      lowered.map((l) => Promise.race([l.done, Promise.resolve(null)])),
    );
    // Kept, so a run that failed can be replayed: `plumb analyze test-artifacts/realrate-result.json`,
    // with the caps the throttle set (at the device's bytes) and where it fell beside it.
    await mkdir(artifactsDir, { recursive: true });
    await copyFile(out, path.join(artifactsDir, 'realrate-result.json'));
    await writeFile(
      path.join(artifactsDir, 'realrate-caps.json'),
      `${JSON.stringify({ seed, attempt, rates, fell: truth, caps: throttle.writeCaps() }, null, 1)}\n`,
    );
    assert.ok(
      truth.every((bytes) => bytes !== null),
      'the throttle was lowered at every step during the run',
    );
    // Each dip ended at the fast rate (until 2026-12-03 the cap stayed at each dip's low rate, and
    // the fast tier walked among them: a step Plumb rightly saw, which the truth here did not).
    const dipCount = dipping && (await Promise.race([dipping.done, Promise.resolve(null)]));
    if (dipCount) {
      const fastTier = throttle.writeCaps().slice(0, 2 * dipCount + 1);
      assert.ok(
        fastTier.every((cap, k) => (k % 2 === 0 ? cap.rate === rates[0] : cap.rate < rates[0]!)),
        `the fast tier's caps alternate between the fast rate and a dip: ${fastTier.map((c) => (c.rate / MB).toFixed(0)).join(', ')}`,
      );
    }
    const fell = truth as number[];

    const document = ResultDocument.parse(JSON.parse(await readFile(out, 'utf8')));
    assert.equal(document.scale, 1);
    const samples = document.samplesByPhase?.write;
    assert.ok(samples, 'the write phase has samples');
    // What the samples show between the true changes: away from them by a throttle slice or two
    // (`measured`), and all of it (`whole`: a file's last write held at a change counts there).
    const stretches = (margin: number) => stretchBounds(fell, samples.bytes.at(-1)!, rates, margin);
    const stretchRates = (margin: number) =>
      stretches(margin).map(({ from, to }) => streamRate(samples, from, to));
    const [measured, whole] = [stretchRates(0.25), stretchRates(0)];
    // The caps were what the run saw: every piece of two to four seconds between the changes
    // moved at least 75 % of what its caps allowed (dips included). Where the disk itself fell
    // below them for long (CI, 2026-12-02: 512 MB/s for 2.5 GB under a 711 cap, read as a step
    // of its own), the run does not show where the throttle changed, whatever Plumb says of it.
    const worst = heldCaps(samples, throttle.writeCaps(), stretches(0.25), rates);
    console.log(
      `# the disk held its caps least from ${(worst.from / GB).toFixed(2)} to ${(worst.to / GB).toFixed(2)} GB: ${(worst.share * 100).toFixed(0)} % of them`,
    );
    const shortfall =
      worst.share >= 0.75
        ? null
        : `from ${(worst.from / GB).toFixed(2)} to ${(worst.to / GB).toFixed(2)} GB the samples show ${(worst.rate / MB).toFixed(0)} MB/s where the caps allowed ${(worst.capped / MB).toFixed(0)}: the disk itself was slower`;
    return { document, fell, measured, whole, rates, shortfall };
  }

  it('reports every step where the throttle fell, at its rate, and a headline between them', async (t) => {
    // This VM's disk can slow to a third of its rate for many seconds (CI, 2026-12-02: 211 MB/s
    // under a 324 MB/s cap): a run it spoiled is run once more, and a second spoiled run skips.
    let run = await sustainedRun(1);
    if (run.shortfall) {
      console.log(`# run 1 does not count: ${run.shortfall}`);
      run = await sustainedRun(2);
    }
    if (run.shortfall) {
      console.log(`# run 2 does not count either: ${run.shortfall}`);
      t.skip(`this machine's disk did not hold the caps in two runs: ${run.shortfall}`);
      return;
    }
    const { document, fell, measured, whole, rates } = run;
    const cliff = document.findings.find((f) => f.kind === 'cliff' || f.kind === 'throttling');
    assert.ok(cliff && cliff.kind === 'cliff', JSON.stringify(document.findings));
    const steps = cliff.steps ?? [];
    const said = steps
      .map((s) => `${(s.atBytes / GB).toFixed(3)} GB at ${(s.rate / MB).toFixed(0)} MB/s`)
      .join(', ');
    console.log(
      `# the throttle fell at ${fell.map((b) => (b / GB).toFixed(3)).join(' and ')} GB; the samples show ${measured.map((r) => (r / MB).toFixed(0)).join(' → ')} MB/s; found ${said}`,
    );
    console.log(`# ${cliff.message}`);
    assert.equal(steps.length, rates.length, `every step: ${said}`);
    steps.forEach((step, k) => {
      if (k > 0) {
        const slack = Math.max(0.05 * fell[k - 1]!, 0.1 * rates[k - 1]!);
        assert.ok(Math.abs(step.atBytes - fell[k - 1]!) <= slack, `step ${k} placed: ${said}`);
      }
      // Within 10 % of what the samples show there, with or without the slices at the changes
      // (Plumb places each change within 5 %, so its stretch ends where either may).
      const [low, high] = [measured[k]!, whole[k]!].sort((a, b) => a - b);
      assert.ok(
        step.rate >= 0.9 * low! && step.rate <= 1.1 * high!,
        `step ${k} rate ${step.rate} against ${measured[k]} measured, ${whole[k]} with the changes' slices`,
      );
    });
    const headline = document.headline?.write?.rate ?? null;
    assert.ok(
      headline !== null &&
        headline >= 0.9 * Math.min(...measured) &&
        headline <= 1.1 * Math.max(...measured),
      `headline ${headline} outside ${measured.join(', ')}`,
    );
    assert.ok(document.recovery, 'the plan timed the recovery');
  });
});
