import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtInCatalogue } from '../../../app/core/planner/catalogue.js';
import { evaluateScenario } from '../../../app/core/planner/evaluate.js';
import {
  interfaceOfBus,
  profileFromResult,
} from '../../../app/core/planner/profile-from-result.js';
import { parseScenario } from '../../../app/core/planner/scenario-file.js';

const summary = (rate: number) => ({
  count: 40,
  mean: rate * 1.1,
  median: rate * 1.05,
  min: rate * 0.2,
  max: rate * 1.3,
  trimmedMean: { rate, p20: rate * 0.9, p80: rate * 1.1 },
  theilSen: { rate, latency: 0.002 },
  linear: { rate: rate * 0.98, latency: 0.003, r2: 0.99 },
});

/** A synthetic result in the DESIGN.md format: a TB5 SSD with a cliff at 48 GB. */
function tb5Result(overrides: Record<string, unknown> = {}) {
  return {
    schema: 'plumb.result/1',
    id: '20260110-101500-ab12',
    startedAt: '2026-01-10T10:15:00Z',
    app: { version: '0.1.0' },
    environment: {
      os: 'darwin 25.1',
      volume: {
        path: '/Volumes/Fast',
        fsType: 'apfs',
        totalBytes: 2e12,
        freeBytes: 1.8e12,
        bus: 'Thunderbolt 5',
      },
      cacheMode: 'direct',
    },
    plan: { name: 'sustained' },
    files: [
      {
        phase: 'write',
        bytes: 2e9,
        seconds: 0.37,
        cumulativeBytes: 2e9,
        t: 0.37,
        temperatureC: null,
      },
      {
        phase: 'write',
        bytes: 2e9,
        seconds: 1.43,
        cumulativeBytes: 120e9,
        t: 60,
        temperatureC: null,
      },
      {
        phase: 'read',
        bytes: 2e9,
        seconds: 0.39,
        cumulativeBytes: 2e9,
        t: 0.39,
        temperatureC: null,
      },
    ],
    // The summary's Theil-Sen figures differ from the headline: the planner takes the headline.
    summary: { write: summary(3.5e9), read: summary(5.6e9) },
    headline: {
      write: { rate: 3.1e9, basis: 'steady rate of 40 files of 2 MB or more' },
      read: { rate: 5.1e9, basis: 'steady rate of 40 files of 2 MB or more' },
    },
    findings: [
      { kind: 'small-files', phase: 'write', count: 3, thresholdBytes: 2e6 },
      {
        kind: 'cliff',
        phase: 'write',
        atBytes: 48e9,
        beforeRate: 5.4e9,
        afterRate: 1.45e9,
        recoverySeconds: 210,
      },
    ],
    ...overrides,
  };
}

test('a result with a cliff becomes a profile: rates, cache size, after-cache rate, recovery', () => {
  const profile = profileFromResult(tb5Result());
  assert.equal(profile.id, 'result:20260110-101500-ab12');
  assert.equal(profile.origin, 'measured');
  assert.equal(profile.interface, 'tb5');
  assert.equal(profile.placement, 'external');
  assert.equal(profile.capacityBytes, 2e12);
  assert.equal(profile.writeBytesPerSecond, 5.4e9);
  assert.equal(profile.afterCacheWriteBytesPerSecond, 1.45e9);
  assert.equal(profile.cacheBytes, 48e9);
  assert.equal(profile.cacheKind, 'dynamic-tlc');
  assert.equal(profile.cacheRecoverySeconds, 210);
  assert.equal(profile.readBytesPerSecond, 5.1e9); // the headline, not Theil-Sen or the median
  assert.equal(profile.sources.cacheBytes, 'result:20260110-101500-ab12');
  assert.match(profile.note!, /cliff after 48\.0 GB with 1800 GB free/);
});

test('without a cliff the headline write rate is sustained; recovery may come from the run', () => {
  const profile = profileFromResult(
    tb5Result({
      findings: [],
      recovery: { probes: [], recoverySeconds: 95 },
      environment: { ...tb5Result().environment, cacheMode: 'buffered' },
    }),
  );
  assert.equal(profile.cacheKind, 'none');
  assert.equal(profile.cacheBytes, null);
  assert.equal(profile.writeBytesPerSecond, 3.1e9);
  assert.equal(profile.cacheRecoverySeconds, 95);
  assert.match(profile.note!, /No cliff within the 120\.0 GB written.*buffered/);
});

test('a result saved before headlines gets its headline by the rule, from its files', () => {
  const { headline: _stored, ...old } = tb5Result({ findings: [] });
  const profile = profileFromResult(old);
  // Two 2 GB writes (sizes too alike for a slope): their bytes over their seconds.
  assert.equal(profile.writeBytesPerSecond, 4e9 / 1.8);
  assert.equal(profile.readBytesPerSecond, 2e9 / 0.39);
});

test('a thermal throttle stays a thermal limit; a cliff beyond free ÷ 3 is kept as measured', () => {
  const thermal = profileFromResult(
    tb5Result({
      findings: [
        {
          kind: 'throttling',
          phase: 'write',
          atBytes: 23.9e9,
          beforeRate: 2.3e9,
          afterRate: 0.65e9,
        },
      ],
    }),
  );
  assert.equal(thermal.cacheKind, 'thermal');
  const volume = { ...tb5Result().environment.volume, freeBytes: 90e9 };
  const fixed = profileFromResult(
    tb5Result({ environment: { ...tb5Result().environment, volume } }),
  );
  assert.equal(fixed.cacheKind, 'fixed');
});

test('a measured profile is used by the planner as "result:ID", at no extra cost', () => {
  const profile = profileFromResult(tb5Result());
  const evaluation = evaluateScenario(
    parseScenario({
      host: { kind: 'apple-silicon', port: 'tb5' },
      data: { keepInternal: '250GB', movable: '400GB' },
      workload: { bursts: [{ name: 'Import', size: '100GB' }] },
      options: [{ internalCapacity: '512GB', external: { device: profile.id } }],
    }),
    builtInCatalogue(),
    [profile],
  );
  const option = evaluation.options[0]!;
  assert.equal(option.costUsd, 0);
  assert.equal(option.disks[1]!.device.origin, 'measured');
  assert.ok(Math.abs(option.bursts[0]!.totalSeconds - (48 / 5.4 + 52 / 1.45)) < 1e-9);
  assert.ok(evaluation.recommendation.assumptions.some((a) => /Measured profiles/.test(a)));
});

test('documents that are not results, or have no writes, are refused with a reason', () => {
  assert.throws(() => profileFromResult({ schema: 'plumb.result/9' }), {
    code: 'EINVAL',
    message: /schema/,
  });
  const reads = tb5Result().files.filter((f) => f.phase === 'read');
  const noWrites = tb5Result({ findings: [], files: reads, headline: undefined });
  assert.throws(() => profileFromResult(noWrites), {
    code: 'ENOWRITES',
    message: /no write measurements/,
  });
  const smallWrites = tb5Result({
    findings: [],
    headline: undefined,
    files: [{ phase: 'write', bytes: 1e6, seconds: 0.01, cumulativeBytes: 1e6, t: 0.01 }, ...reads],
  });
  assert.throws(() => profileFromResult(smallWrites), {
    code: 'ENOWRITES',
    message: /no write file of 2 MB or more/,
  });
});

test('bus names map to interfaces', () => {
  assert.deepEqual(interfaceOfBus('USB4'), { id: 'usb4', internal: false });
  assert.deepEqual(interfaceOfBus('Thunderbolt 3'), { id: 'tb3', internal: false });
  assert.deepEqual(interfaceOfBus('USB 3.2 Gen 2x2'), { id: 'usb32g2x2', internal: false });
  assert.deepEqual(interfaceOfBus('Apple Fabric'), { id: 'apple-internal', internal: true });
  assert.equal(interfaceOfBus(null), null);
  assert.equal(interfaceOfBus('virtio'), null);
});

test('measured profiles are named by what was measured, when and with which plan', () => {
  // Three runs in one folder (issue 16 saw three identical "Measured: /var/tmp/…" entries).
  const folder = `/var/tmp/plumb-bench-${Math.random().toString(36).slice(2, 10)}`;
  const runs = [
    { id: 'a', startedAt: '2026-11-23T23:37:46.120Z', plan: { name: 'standard' } },
    { id: 'b', startedAt: '2026-11-23T23:39:26.004Z', plan: { name: 'sustained' } },
    { id: 'c', startedAt: '2026-11-24T00:18:23.500Z', plan: { name: 'standard' } },
  ];
  const names = runs.map(
    (run) =>
      profileFromResult(
        tb5Result({
          ...run,
          environment: {
            os: 'linux',
            volume: { path: folder, fsType: 'ext4', totalBytes: 5e11, freeBytes: 3e11, bus: null },
            cacheMode: 'direct',
          },
        }),
      ).name,
  );
  assert.deepEqual(names, [
    `${folder} · 2026-11-23 23:37 UTC · standard plan`,
    `${folder} · 2026-11-23 23:39 UTC · sustained plan`,
    `${folder} · 2026-11-24 00:18 UTC · standard plan`,
  ]);
  // A run the user named keeps its name; a long folder keeps its last parts and the date.
  assert.equal(
    profileFromResult(tb5Result({ name: 'Samsung T9 on the dock' })).name,
    'Samsung T9 on the dock · 2026-01-10 10:15 UTC · sustained plan',
  );
  const deep = profileFromResult(
    tb5Result({
      environment: {
        os: 'linux',
        volume: {
          path: '/media/someone/a-very-long-volume-label/projects/2026/bench-folder',
          fsType: 'ext4',
          totalBytes: 5e11,
          freeBytes: 3e11,
          bus: null,
        },
        cacheMode: 'direct',
      },
    }),
  );
  assert.equal(deep.name, '…/2026/bench-folder · 2026-01-10 10:15 UTC · sustained plan');
  const long = profileFromResult(tb5Result({ name: 'x'.repeat(200) })).name;
  assert.equal(long.length, 120);
  assert.match(long, /… · 2026-01-10 10:15 UTC · sustained plan$/);
});
