// plumb-test: alone (it measures rates or times on a throttled disk; see scripts/test.mjs)
/**
 * Samples inside files, end to end, with the built-in `sustained` plan on a real slow disk: a
 * loop-mounted ext4 (direct I/O to its image) under the kernel's write throttle.
 *
 * - A cache that runs out: the throttle drops from `fast` to `slow` after N bytes (N and both rates
 *   drawn at random, seeded: the seed is printed and PLUMB_TEST_SEED replays it). Plumb must place
 *   the cliff within 5 % of N and both rates within 10 %, though N falls anywhere inside a file of
 *   the plan. The rate comes back once the disk has rested, so the plan's own recovery probe (idle
 *   30 s, one probe) ends the run.
 * - Heat: the throttle saws between fast and slow while writing goes on (a drive that slows when
 *   hot and speeds up as it cools). Plumb must report throttling, with a period near the sawtooth's,
 *   and never a cache.
 *
 * The plan runs as shipped but evenly scaled to a tenth (`--scale 0.1`: files of 20–200 MB, a
 * 200 MB probe) with the total set by `--total`: at the few tens of MB/s this shared machine's loop
 * disk sustains, the full sizes would take half an hour. The probe's idle time is the plan's.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { seededRandom } from '../../app/core/bench/seeded-random.js';
import { loopSkipReason } from '../helpers/loopfs.js';
import {
  mountThrottledDisk,
  runPlumbThrottled,
  throttleSkipReason,
  type WriteThrottle,
} from '../helpers/throttle.js';

const MB = 1e6;
/** The timed write's chunk (kDefaultChunkBytes in native/src/engine/timed_transfer.cc). */
const timedChunkBytes = 4 * 2 ** 20;
const scale = 0.1;
const seed = Number(process.env.PLUMB_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`# seed ${seed} (replay with PLUMB_TEST_SEED=${seed})`);
const random = seededRandom(seed);
const between = (low: number, high: number) => low + random() * (high - low);

// Both tests' unknowns drawn up front, so a seed replays either one alone.
const cliffDraw = (() => {
  const total = 600 * MB;
  const fast = between(30, 60) * MB;
  const slow = Math.max(15 * MB, between(0.25, 0.6) * fast);
  // From half a GB (scaled) up to 80 % of the run's total, as the issue asks.
  const cliffBytes = between(0.5e9 * scale, 0.8 * total);
  return { total, fast, slow, cliffBytes };
})();
const sawDraw = (() => {
  // Slow stretches of 2.5 s and more: on this loop disk, whose rate over a quarter second swings
  // by ±30 % (the kernel throttle's 100 ms slices), main's segmentation missed a 2.1 s one at
  // 47 → 20 MB/s (seed 520493782 before the draws moved up front).
  const fast = between(35, 60) * MB;
  const slow = between(0.25, 0.42) * fast;
  const fastSeconds = between(2.5, 4);
  const slowSeconds = between(2.5, 3.5);
  // Five saw teeth.
  const total = Math.round(5 * (fast * fastSeconds + slow * slowSeconds));
  return { fast, slow, fastSeconds, slowSeconds, period: fastSeconds + slowSeconds, total };
})();

const skip = loopSkipReason('ext4') ?? throttleSkipReason();
if (skip) console.log(`# skipping the sampled-cliff test: ${skip}`);

const within = (value: number, expected: number, share: number) =>
  Math.abs(value - expected) <= share * expected;

describe('plumb bench sustained: samples inside files on a throttled disk', { skip }, () => {
  let disk: ReturnType<typeof mountThrottledDisk> | undefined;
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'plumb-sampling-'));
    disk = mountThrottledDisk(1536 * 1024 * 1024, 100 * MB);
  });
  after(async () => {
    disk?.remove();
    await rm(work, { recursive: true, force: true });
  });

  const bench = (throttle: WriteThrottle, total: number, out: string) =>
    runPlumbThrottled(
      throttle,
      [
        'bench',
        disk!.fs.dir,
        '--plan',
        'sustained',
        '--scale',
        String(scale),
        '--total',
        String(total),
        '--reserve',
        '16MB',
        '--json',
        out,
      ],
      { PLUMB_DATA_DIR: path.join(work, 'data') },
    );

  it('places a drawn cliff within 5 % (four chunks at least) and its rates within 10 %', async () => {
    const { total, fast, slow, cliffBytes } = cliffDraw;
    console.log(
      `# drawn: cliff after ${(cliffBytes / MB).toFixed(0)} MB, ${(fast / MB).toFixed(1)} → ${(slow / MB).toFixed(1)} MB/s`,
    );
    const throttle = disk!.throttle;
    throttle.setWriteBytesPerSecond(fast);
    const out = path.join(work, 'cliff.json');
    const lower = throttle.lowerAfter(cliffBytes, slow);
    // What the device really took before the throttle fell: blk-throttle can let a burst past the
    // set rate, so the rate before is checked against the device's own byte count over time.
    let firstSeen: { ms: number; bytes: number } | null = null;
    const watch = setInterval(() => {
      const bytes = throttle.bytesWritten();
      if (firstSeen === null && bytes > 0) firstSeen = { ms: performance.now(), bytes };
    }, 5);
    const deviceFast = lower.done.then((bytes) => {
      clearInterval(watch);
      const start = firstSeen;
      return start ? ((bytes - start.bytes) * 1000) / (performance.now() - start.ms) : fast;
    });
    // Once all of it is written and the disk has been quiet a few seconds, the cache has emptied.
    const allWritten = throttle.lowerAfter(total, slow);
    let raise: ReturnType<WriteThrottle['raiseAfterIdle']> | undefined;
    void allWritten.done.then(() => (raise = throttle.raiseAfterIdle(3, 10, fast)));
    const result = await bench(throttle, total, out);
    lower.stop();
    clearInterval(watch);
    allWritten.stop();
    raise?.stop();
    assert.equal(result.status, 0, result.stderr);
    const loweredAt = await Promise.race([lower.done, Promise.resolve(null)]);
    assert.ok(loweredAt !== null, 'the throttle was lowered during the run');

    const text = await readFile(out, 'utf8');
    if (process.env.PLUMB_DEBUG_SAMPLES) await writeFile(process.env.PLUMB_DEBUG_SAMPLES, text);
    const document = ResultDocument.parse(JSON.parse(text));
    assert.equal(document.schema, 'plumb.result/2');
    assert.equal(document.scale, scale);
    const samples = document.samplesByPhase?.write;
    assert.ok(samples, 'the write phase has samples');
    const files = document.files.filter((f) => f.phase === 'write');
    // At least one sample a quarter second, and both ends of every file.
    const writeSeconds = files.reduce((sum, f) => sum + f.seconds, 0);
    assert.ok(samples.t.length >= 4 * writeSeconds * 0.9, `${samples.t.length} samples`);
    assert.equal(new Set(samples.file).size, files.length);
    assert.equal(samples.bytes.at(-1), files.at(-1)!.cumulativeBytes);

    const cliff = document.findings.find((f) => f.kind === 'cliff' || f.kind === 'throttling');
    assert.ok(cliff && cliff.kind === 'cliff', JSON.stringify(document.findings));
    console.log(
      `# found: cliff after ${(cliff.atBytes / MB).toFixed(1)} MB (lowered at ${(loweredAt / MB).toFixed(1)} MB device bytes), ${(cliff.beforeRate / MB).toFixed(1)} → ${(cliff.afterRate / MB).toFixed(1)} MB/s; ${cliff.message}`,
    );
    // Against where the disk's rate really dropped: the controller reads the device's byte count
    // every 5 ms, and the kernel passes a direct write in bursts of up to a 4 MiB chunk, so the
    // throttle falls a few MB after the N drawn. Within 5 %, or four chunks where that is more:
    // the samples are a chunk apart, and in some runs (more of them on a busy machine) the kernel
    // passes the chunks in cycles of about four (one at once, the rest held, each held one nearly
    // as slow as the slower rate), so the rate is only defined over a cycle. At the sizes (N from 0.5 GB) four chunks are
    // under 5 %; this run is scaled to a tenth and the chunk is not (CI seed 861929446: placed
    // 12.8 MB, three chunks, before 223.8 MB in such a run).
    const placed = Math.max(0.05 * loweredAt, 4 * timedChunkBytes);
    assert.ok(
      Math.abs(cliff.atBytes - loweredAt) <= placed,
      `cliff at ${cliff.atBytes}, lowered at ${loweredAt}`,
    );
    const deviceRate = await deviceFast;
    console.log(`# the device took ${(deviceRate / MB).toFixed(1)} MB/s before the throttle fell`);
    assert.ok(
      within(cliff.beforeRate, deviceRate, 0.1),
      `before ${cliff.beforeRate}, device ${deviceRate}`,
    );
    assert.ok(within(cliff.afterRate, slow, 0.1), `after ${cliff.afterRate}`);
    assert.ok(cliff.steps && cliff.steps.length >= 2, 'the steps are given');
    // The plan's own probe, from samples: the rate was back at the first one, after 30 s idle.
    assert.ok(document.recovery?.recoverySeconds, JSON.stringify(document.recovery));
    assert.ok(document.samplesByPhase?.recovery, 'the probe has samples');
    assert.match(cliff.reason, /alone does not tell them apart|write cache|cannot tell|run again/);
    assert.deepEqual(
      (await readdir(disk!.fs.dir)).filter((n) => n.startsWith('plumb-test-')),
      [],
    );
  });

  it('reports a sawtooth while writing goes on as throttling, never as a cache', async () => {
    const { fast, slow, fastSeconds, slowSeconds, period, total } = sawDraw;
    console.log(
      `# drawn: ${(fast / MB).toFixed(1)} MB/s for ${fastSeconds.toFixed(1)} s, ${(slow / MB).toFixed(1)} MB/s for ${slowSeconds.toFixed(1)} s, ${(total / MB).toFixed(0)} MB`,
    );
    const throttle = disk!.throttle;
    throttle.setWriteBytesPerSecond(fast);
    let hot = false;
    let timer: NodeJS.Timeout | undefined;
    const saw = () => {
      hot = !hot;
      throttle.setWriteBytesPerSecond(hot ? slow : fast);
      timer = setTimeout(saw, (hot ? slowSeconds : fastSeconds) * 1000);
    };
    // Starts once writing has begun, so the first fast stretch is a whole one.
    const started = throttle.lowerAfter(1, fast);
    void started.done.then(() => (timer = setTimeout(saw, fastSeconds * 1000)));
    const out = path.join(work, 'sawtooth.json');
    const result = await bench(throttle, total, out);
    started.stop();
    clearTimeout(timer);
    assert.equal(result.status, 0, result.stderr);

    const text = await readFile(out, 'utf8');
    if (process.env.PLUMB_DEBUG_SAMPLES)
      await writeFile(`${process.env.PLUMB_DEBUG_SAMPLES}.saw.json`, text);
    const document = ResultDocument.parse(JSON.parse(text));
    const drop = document.findings.find((f) => f.kind === 'cliff' || f.kind === 'throttling');
    assert.ok(drop && drop.kind === 'throttling', JSON.stringify(document.findings));
    console.log(`# found: ${drop.message}`);
    assert.notEqual(drop.cause, 'cache');
    assert.ok(drop.repeating && drop.repeating.count >= 2, JSON.stringify(drop.repeating));
    assert.ok(
      within(drop.repeating.periodSeconds, period, 0.25),
      `period ${drop.repeating.periodSeconds}`,
    );
    // Roughly the sawtooth's share: measured 30 % against 44 % when the segmentation merged two of
    // five teeth into their fast neighbours (the period is the sturdier figure).
    assert.ok(
      within(drop.repeating.slowShare, slowSeconds / period, 0.5),
      `slow ${drop.repeating.slowShare}`,
    );
    assert.doesNotMatch(drop.message, /cache filled|a write cache of/);
    assert.doesNotMatch(result.stdout, /cache filled|a write cache of/);
  });
});
