import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Plan } from '../../../app/contract/plan.js';
import { formatBytes, formatDuration } from '../../../app/common/format.js';
import {
  estimatedTime,
  estimatePlan,
  ratesFromHistory,
  typicalRates,
} from '../../../renderer/src/screens/bench/estimates.js';
import { mountOf } from '../../../renderer/src/ui/volume-text.js';
import { toBlocks } from '../../../app/common/run-sizes.js';
import { targetWarnings, whatFits } from '../../../renderer/src/screens/bench/target-warnings.js';
import { planStory, readPlanFile, planFileText } from '../../../renderer/src/ui/plan-catalogue.js';

const GB = 1e9;
const standard: Plan = {
  schema: 'plumb.plan/1',
  name: 'standard',
  kind: 'files',
  logUniform: { count: 160, minBytes: 2e6, maxBytes: 2e9 },
  repeats: 1,
  shuffle: true,
  readBack: true,
};
const sustained: Plan = {
  schema: 'plumb.plan/1',
  name: 'sustained',
  kind: 'sustained',
  minFileBytes: 200e6,
  maxFileBytes: 2e9,
  totalBytes: null,
  timeLimitSeconds: null,
  recovery: { idleSeconds: 30, probeBytes: 2e9, maxProbes: 20 },
};
const bigDisk = {
  totalBytes: 2000 * GB,
  availableBytes: 1500 * GB,
  bus: 'nvme',
  medium: 'ssd' as const,
  directIoAlignment: 512,
  fsType: 'ext4',
};
// Bytes only (no per-file or per-run costs), so sums can be checked by hand.
const rates = {
  writeRate: 2 * GB,
  readRate: 2 * GB,
  writeFileSeconds: 0,
  readFileSeconds: 0,
  runSeconds: 0,
  queueRunSeconds: 0,
  source: 'test',
};

test('the standard plan writes about 47 GB (a log-uniform sum), then reads it back', () => {
  const estimate = estimatePlan(standard, { scale: 1 }, bigDisk, rates);
  // Σ 2 MB · r^i for i < 160 with r = 1000^(1/159): 2e6 · (1000·r − 1)/(r − 1) ≈ 47.0 GB
  assert.ok(Math.abs(estimate.writeBytes - 47.0 * GB) < 0.2 * GB, formatBytes(estimate.writeBytes));
  assert.equal(estimate.readBytes, estimate.writeBytes);
  assert.equal(estimate.files, 320);
  assert.ok(Math.abs(estimate.seconds - (2 * estimate.writeBytes) / (2 * GB)) < 1e-6);
  assert.equal(estimate.fits, true);
  const scaled = estimatePlan(standard, { scale: 0.01 }, bigDisk, rates);
  assert.ok(
    Math.abs(scaled.writeBytes - estimate.writeBytes / 100) <
      (0.01 * estimate.writeBytes) / 100 + 160 * 4096,
  );
});

test('a sustained run defaults to four times a cache guess, capped by the free-space guard', () => {
  // cache guess = min(1500/3, 2000·0.1) = 200 GB; 4 × 200 = 800 GB; allowance = 1500 − 200 = 1300 GB
  const estimate = estimatePlan(sustained, { scale: 1 }, bigDisk, rates);
  assert.equal(estimate.writeBytes, 800 * GB);
  assert.equal(estimate.allowanceBytes, 1300 * GB);
  const capped = estimatePlan(sustained, { scale: 1, totalBytes: 64e6 }, bigDisk, rates);
  assert.equal(capped.writeBytes, 64e6);
  // Scaled, the default total shrinks with everything else (800 GB × 0.01 = 8 GB).
  assert.equal(estimatePlan(sustained, { scale: 0.01 }, bigDisk, rates).writeBytes, 8 * GB);
});

test('warnings: too big for the guard, a large write, no direct I/O', () => {
  const smallDisk = {
    ...bigDisk,
    totalBytes: 100 * GB,
    availableBytes: 30 * GB,
    directIoAlignment: null,
    fsType: 'tmpfs',
  };
  const estimate = estimatePlan(standard, { scale: 1 }, smallDisk, rates);
  assert.equal(estimate.fits, false);
  const warnings = targetWarnings(estimate, smallDisk, false, formatBytes);
  assert.deepEqual(
    warnings.map((w) => w.level),
    ['danger', 'caution', 'caution'],
  );
  assert.match(warnings[0]!.message, /Not enough free space/);
  assert.match(warnings[1]!.message, /writes 47\.\d GB/);
  assert.match(warnings[2]!.message, /tmpfs does not offer uncached/);
  const quick = estimatePlan(standard, { scale: 0.01 }, bigDisk, rates);
  assert.deepEqual(targetWarnings(quick, bigDisk, false, formatBytes), []);
});

test('time comes from an earlier run on the same volume, else a typical rate for the bus', () => {
  const mounts = ['/', '/mnt/fast'];
  assert.equal(mountOf('/mnt/fast/bench', mounts), '/mnt/fast');
  assert.equal(mountOf('/home/me', mounts), '/');
  const history = [
    { volumePath: '/mnt/fast/bench', writeMedian: 3 * GB, readMedian: 4 * GB },
    { volumePath: '/home/me', writeMedian: 1 * GB, readMedian: null },
  ];
  const fallback = typicalRates({ bus: 'usb', medium: 'ssd' });
  assert.match(fallback.source, /USB/);
  assert.deepEqual(ratesFromHistory(history, '/', mounts, fallback), {
    ...fallback,
    writeRate: 1 * GB,
    readRate: 1 * GB,
    source: 'from your last run on this volume',
  });
  assert.equal(ratesFromHistory(history, '/mnt/fast', mounts, fallback).readRate, 4 * GB);
  assert.equal(ratesFromHistory(history, '/media/usb', mounts, fallback), fallback);
});

test('plans are described in plain words and survive a round trip through a plan file', () => {
  const story = planStory(sustained);
  assert.equal(story.title, 'Sustained write');
  assert.match(story.reveals, /cache fills/);
  assert.match(story.does, /200 MB to 2 GB/);
  assert.deepEqual(readPlanFile(planFileText(standard)), standard);
  assert.throws(() => readPlanFile('{"name":"x"}'), /not a Plumb plan/);
  assert.throws(() => readPlanFile('nope'), /not JSON/);
  assert.throws(() => readPlanFile('{"schema":"plumb.plan/1","name":"x","kind":"disk"}'), /kind/);
});

test('a small card refused at full size is told the scale and the reserve that would fit', () => {
  const card = { ...bigDisk, totalBytes: 64 * GB, availableBytes: 50 * GB, bus: 'usb' };
  const rates = typicalRates(card);
  const full = estimatePlan(standard, { scale: 1 }, card, rates);
  assert.equal(full.reserveBytes, 6.4 * GB, 'the default keeps 10 % of 64 GB');
  assert.equal(full.fits, false);
  const advice = whatFits(standard, { scale: 1 }, card, rates, [1, 0.1, 0.01]);
  assert.equal(advice.scale, 0.1);
  assert.ok(advice.reserveBytes !== null && advice.reserveBytes <= 50 * GB - full.spaceBytes);
  assert.ok(
    estimatePlan(standard, { scale: 1, reserveBytes: advice.reserveBytes }, card, rates).fits,
  );
  const [danger] = targetWarnings(full, card, false, formatBytes, advice, (s) => `x${s}`);
  assert.match(danger!.message, /choose the scale “x0\.1”/);
  assert.match(danger!.message, /set “Keep free on the disk” to 3\.00 GB or less/);
  // Already at the smallest scale and a nearly full stick: neither is offered, only space.
  const stick = { ...card, totalBytes: 16 * GB, availableBytes: 1.9 * GB };
  const quick = estimatePlan(standard, { scale: 0.01 }, stick, rates);
  assert.equal(quick.fits, false);
  const none = whatFits(standard, { scale: 0.01 }, stick, rates, [1, 0.1, 0.01]);
  assert.equal(none.scale, null);
  assert.ok(none.reserveBytes !== null && none.reserveBytes < 1.6 * GB);
  const lower = { reserveBytes: none.reserveBytes };
  assert.ok(estimatePlan(standard, { scale: 0.01, ...lower }, stick, rates).fits);
});

test('the reserve asked from the UI never goes below the floor', () => {
  const stick = { ...bigDisk, totalBytes: 16 * GB, availableBytes: 1 * GB };
  const estimate = estimatePlan(
    standard,
    { scale: 0.01, reserveBytes: 0 },
    stick,
    typicalRates(stick),
  );
  assert.equal(estimate.reserveBytes, 256e6);
});

test('a run timed on the wall clock gives per-file costs; the next estimate counts them', () => {
  const mounts = ['/'];
  const pace = {
    write: { bytesPerSecond: 0.8 * GB, fileSeconds: 0.015 },
    read: { bytesPerSecond: 6 * GB, fileSeconds: 0.002 },
    runSeconds: 0.3,
  };
  const history = [
    { volumePath: '/home/me', writeMedian: 0.16 * GB, readMedian: 1.4 * GB, pace: null },
    { volumePath: '/home/me', writeMedian: 0.16 * GB, readMedian: 1.4 * GB, pace },
  ];
  const basis = ratesFromHistory(history, '/', mounts, typicalRates(bigDisk));
  assert.equal(basis.writeFileSeconds, 0.015);
  assert.equal(basis.writeRate, 0.8 * GB, 'the per-byte rate, not the small files’ median');
  const quick = estimatePlan(standard, { scale: 0.01 }, bigDisk, basis);
  // 0.3 s + 160 × 15 ms + 0.47 GB / 0.8 GB/s + 160 × 2 ms + 0.47 GB / 6 GB/s ≈ 3.69 s
  const expected =
    0.3 + 160 * 0.015 + quick.writeBytes / (0.8 * GB) + 160 * 0.002 + quick.writeBytes / (6 * GB);
  assert.ok(Math.abs(quick.seconds - expected) < 1e-9, String(quick.seconds));
  assert.ok(quick.seconds > 3 && quick.seconds < 4.5);
});

test('the estimate takes the median of the last three runs timed, so one odd run does not set it', () => {
  const mounts = ['/'];
  const pace = (write: number, fileSeconds: number, runSeconds: number) => ({
    write: { bytesPerSecond: write * GB, fileSeconds },
    read: { bytesPerSecond: 2 * GB, fileSeconds: 0.002 },
    runSeconds,
  });
  // Newest first: a slow moment (0.5 GB/s), two ordinary runs, then an older one left out.
  const history = [
    {
      volumePath: '/home/me',
      writeMedian: 0.5 * GB,
      readMedian: 2 * GB,
      pace: pace(0.5, 0.02, 0.4),
    },
    {
      volumePath: '/home/me',
      writeMedian: 1.5 * GB,
      readMedian: 2 * GB,
      pace: pace(1.5, 0.006, 0.1),
    },
    {
      volumePath: '/home/me',
      writeMedian: 1.6 * GB,
      readMedian: 2 * GB,
      pace: pace(1.6, 0.007, 0.12),
    },
    { volumePath: '/home/me', writeMedian: 9 * GB, readMedian: 9 * GB, pace: pace(9, 0, 0) },
  ];
  const basis = ratesFromHistory(history, '/', mounts, typicalRates(bigDisk));
  assert.equal(basis.writeRate, 1.5 * GB);
  assert.equal(basis.writeFileSeconds, 0.007);
  assert.equal(basis.runSeconds, 0.12);
  assert.equal(basis.source, 'from your last 3 runs on this volume');
  const two = ratesFromHistory(history.slice(1, 3), '/', mounts, typicalRates(bigDisk));
  assert.ok(Math.abs(two.writeRate - 1.55 * GB) < 1, 'two runs: their mean');
});

test('a sustained run says what each recovery check adds, apart from its time', () => {
  const rates = { ...typicalRates(bigDisk), writeRate: 1 * GB, writeFileSeconds: 0.01 };
  const quick = estimatePlan(sustained, { scale: 0.01 }, bigDisk, rates);
  // The idle does not shrink with the scale (a cache empties at its own pace); the probe does.
  assert.deepEqual(quick.recoveryChecks, { seconds: 30 + 0.01 + toBlocks(20e6) / GB, most: 20 });
  assert.equal(estimatePlan(standard, { scale: 0.01 }, bigDisk, rates).recoveryChecks, null);
  const none = estimatePlan({ ...sustained, recovery: null }, { scale: 1 }, bigDisk, rates);
  assert.equal(none.recoveryChecks, null);
});

test('a test is estimated from its own earlier runs on the volume first, from others without', () => {
  const mounts = ['/'];
  const run = (plan: string, fileSeconds: number) => ({
    volumePath: '/home/me',
    plan,
    writeMedian: 1 * GB,
    readMedian: 2 * GB,
    pace: {
      write: { bytesPerSecond: 1 * GB, fileSeconds },
      read: { bytesPerSecond: 2 * GB, fileSeconds: 0.002 },
      runSeconds: 0.1,
    },
  });
  // Newest first: two sustained runs (bigger files, a larger fixed cost each), then a standard one.
  const history = [run('sustained', 0.009), run('sustained', 0.0095), run('standard', 0.007)];
  const fallback = typicalRates(bigDisk);
  const standardBasis = ratesFromHistory(history, '/', mounts, fallback, 'standard');
  // One run of its own: half its figure, half the median of the others'.
  assert.equal(standardBasis.writeFileSeconds, (0.007 + (0.009 + 0.0095) / 2) / 2);
  assert.equal(
    standardBasis.source,
    'from your last run of this test and 2 other runs on this volume',
  );
  const alone = ratesFromHistory(history.slice(2), '/', mounts, fallback, 'standard');
  assert.equal(alone.writeFileSeconds, 0.007);
  assert.equal(alone.source, 'from your last run of this test on this volume');
  const sustainedBasis = ratesFromHistory(history, '/', mounts, fallback, 'sustained');
  assert.equal(sustainedBasis.writeFileSeconds, (0.009 + 0.0095) / 2);
  assert.equal(sustainedBasis.source, 'from your last 2 runs of this test on this volume');
  const seriesBasis = ratesFromHistory(history, '/', mounts, fallback, 'series');
  assert.equal(seriesBasis.writeFileSeconds, 0.009, 'no series run: the median of the last three');
  assert.equal(seriesBasis.source, 'from your last 3 runs on this volume');
});

test('a test that only writes takes the volume’s reading rate from the runs that read', () => {
  const paced = (plan: string, read: number | null) => ({
    volumePath: '/home/me',
    plan,
    writeMedian: 1 * GB,
    readMedian: read,
    pace: {
      write: { bytesPerSecond: 1 * GB, fileSeconds: 0.009 },
      read: read === null ? null : { bytesPerSecond: read, fileSeconds: 0.002 },
      runSeconds: 0.1,
    },
  });
  const history = [paced('sustained', null), paced('standard', 2.5 * GB)];
  const basis = ratesFromHistory(history, '/', ['/'], typicalRates(bigDisk), 'sustained');
  assert.equal(basis.readRate, 2.5 * GB);
  assert.equal(basis.source, 'from your last run of this test and one other run on this volume');
});

test('one slow run of a test does not set its next estimate alone (CI: 52 % off)', () => {
  const run = (plan: string, write: number, fileSeconds: number) => ({
    volumePath: '/home/me',
    plan,
    writeMedian: write,
    readMedian: 2 * write,
    pace: {
      write: { bytesPerSecond: write, fileSeconds },
      read: { bytesPerSecond: 2 * write, fileSeconds: fileSeconds / 3 },
      runSeconds: 0.1,
    },
  });
  // The standard test's only run came while the machine was busy (a third of the speed, three
  // times the cost a file); the sustained and grid runs after it were ordinary.
  const history = [
    run('sustained', 1.2 * GB, 0.009),
    run('sustained', 1.1 * GB, 0.01),
    run('standard', 0.4 * GB, 0.021),
  ];
  const plan = standard;
  const quick = { scale: 0.01 };
  const ordinary = estimatePlan(
    plan,
    quick,
    bigDisk,
    ratesFromHistory(
      history.slice(0, 1).map((r) => ({ ...r, plan: 'standard' })),
      '/',
      ['/'],
      typicalRates(bigDisk),
      'standard',
    ),
  );
  const alone = estimatePlan(
    plan,
    quick,
    bigDisk,
    ratesFromHistory(history.slice(2), '/', ['/'], typicalRates(bigDisk), 'standard'),
  );
  const blended = estimatePlan(
    plan,
    quick,
    bigDisk,
    ratesFromHistory(history, '/', ['/'], typicalRates(bigDisk), 'standard'),
  );
  const off = (estimate: { seconds: number }) => estimate.seconds / ordinary.seconds - 1;
  assert.ok(off(alone) > 1, `the slow run alone: ${(100 * off(alone)).toFixed(0)} % long`);
  assert.ok(
    off(blended) < off(alone) / 2 + 0.2,
    `blended: ${(100 * off(blended)).toFixed(0)} % long`,
  );
  assert.equal(blended.guess, false);
});

test('with nothing run on the volume, the time is said to be a first guess', () => {
  const first = estimatePlan(standard, { scale: 0.01 }, bigDisk, typicalRates(bigDisk));
  assert.equal(first.guess, true);
  assert.match(
    estimatedTime(first),
    /^about [\d.]+ s — a first guess; it improves as the run goes$/,
  );
  assert.match(estimatedTime(first, 'card'), /^about [\d.]+ s \(a first guess\)$/);
  const measured = estimatePlan(standard, { scale: 0.01 }, bigDisk, rates);
  assert.equal(estimatedTime(measured), `about ${formatDuration(measured.seconds)}`);
});

test('on a 3 GB disk the sustained estimate sizes its recovery probes as the engine will, and says so', () => {
  const small = { ...bigDisk, totalBytes: 3 * GB, availableBytes: 2.9 * GB, bus: 'usb' };
  const estimate = estimatePlan(sustained, { scale: 1 }, small, rates);
  // The default reserve keeps 1 GB: 1.9 GB may be written, so a 2 GB probe cannot be.
  assert.match(estimate.recoveryNote ?? '', /^Recovery probes of 1\.8\d GB instead of 2\.00 GB/);
  const probe = estimate.recoveryChecks!.seconds - 30;
  assert.ok(probe > 1.8 / 2 && probe < 1.9 / 2, `probe of ${probe} s at 2 GB/s`);
  assert.equal(estimatePlan(sustained, { scale: 1 }, bigDisk, rates).recoveryNote, null);
  const tight = estimatePlan(sustained, { scale: 1, reserveBytes: 2.75 * GB }, small, rates);
  assert.equal(tight.recoveryChecks, null);
  assert.match(tight.recoveryNote ?? '', /^The recovery is not timed/);
});

test('a capacity check fills the allowance, reads it all back, and a quick one its share', () => {
  const capacity: Plan = {
    schema: 'plumb.plan/1',
    name: 'capacity',
    kind: 'capacity',
    fileBytes: 1e9,
    totalBytes: null,
  };
  const stick = { ...bigDisk, totalBytes: 64 * GB, availableBytes: 62 * GB, bus: 'usb' };
  const full = estimatePlan(capacity, { scale: 1 }, stick, rates);
  const fill = Math.floor((62 * GB - 6.4 * GB) / 4096) * 4096;
  assert.deepEqual(
    [full.writeBytes, full.readBytes, full.files, full.fits],
    [fill, fill, 2 * 56, true],
  );
  assert.ok(Math.abs(full.seconds - (2 * fill) / (2 * GB)) < 1e-6);
  assert.ok(full.writeBytes >= 20e9, 'large enough to be confirmed before Start');
  const quick = estimatePlan(capacity, { scale: 0.01 }, stick, rates);
  assert.ok(Math.abs(quick.writeBytes - fill / 100) < 4096);
  const capped = estimatePlan(capacity, { scale: 1, totalBytes: 8 * GB }, stick, rates);
  assert.equal(capped.writeBytes, 8 * GB);
  const full2 = estimatePlan(capacity, { scale: 1 }, { ...stick, availableBytes: 6 * GB }, rates);
  assert.equal(full2.fits, false, 'nothing above the reserve: refused before Start');
  assert.match(planStory(capacity).does, /^The free space filled with 1 GB files/);
  assert.equal(planStory(capacity).title, 'Capacity check');
});
