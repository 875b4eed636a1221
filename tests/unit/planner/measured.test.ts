// Saved results in the results store become planner profiles (and a broken file is reported).
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ResultsStore } from '../../../app/core/bench/results-store.js';
import { measuredProfiles } from '../../../app/core/planner/measured.js';

let dir = '';
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plumb-measured-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const summary = (rate: number | null) => ({
  count: rate === null ? 0 : 30,
  mean: rate,
  median: rate,
  min: rate,
  max: rate,
  sd: rate === null ? null : 0.1 * rate,
  trimmedMean: rate === null ? null : { rate, p20: rate, p80: rate },
  theilSen: { rate, latency: rate === null ? null : 0.001 },
  linear: { rate, latency: rate === null ? null : 0.001, r2: rate === null ? null : 0.99 },
  bySize: [],
});

test('every stored result with writes becomes a measured profile', async () => {
  const store = new ResultsStore(path.join(dir, 'results'));
  await store.save({
    schema: 'plumb.result/2',
    scale: 1,
    id: '20260111-090000-cafe',
    startedAt: '2026-01-11T09:00:00Z',
    app: { version: '0.1.0' },
    environment: {
      os: 'linux',
      volume: {
        path: '/mnt/usb4',
        fsType: 'ext4',
        totalBytes: 1e12,
        freeBytes: 900e9,
        bus: 'USB4',
      },
      cacheMode: 'direct',
    },
    plan: { name: 'sustained' },
    files: [
      {
        phase: 'write',
        bytes: 1e9,
        seconds: 0.3,
        cumulativeBytes: 150e9,
        t: 50,
        temperatureC: null,
      },
    ],
    summary: { write: summary(3.2e9), read: summary(null) },
    findings: [
      {
        kind: 'cliff',
        phase: 'write',
        message: 'Write rate fell after 100 GB',
        atBytes: 100e9,
        atSeconds: 31,
        beforeRate: 3.5e9,
        afterRate: 0.9e9,
        confidence: 0.9,
        cause: 'cache',
        reason: 'sudden drop, steady after',
        recoverySeconds: null,
      },
    ],
    recovery: { probes: [], recoverySeconds: 180 },
  });
  // A run that only read (reading a folder) is not a device profile, and not a problem to report.
  await store.save({
    schema: 'plumb.result/2',
    scale: 1,
    id: '20260111-100000-beef',
    startedAt: '2026-01-11T10:00:00Z',
    app: { version: '0.1.0' },
    environment: {
      os: 'linux',
      volume: { path: '/mnt/usb4', fsType: 'ext4', totalBytes: 1e12, freeBytes: 900e9, bus: null },
      cacheMode: 'direct',
    },
    plan: { name: 'read-folder' },
    files: [
      { phase: 'read', bytes: 1e9, seconds: 0.5, cumulativeBytes: 1e9, t: 0.5, temperatureC: null },
    ],
    summary: { write: summary(null), read: summary(2e9) },
    findings: [],
  });
  await writeFile(path.join(dir, 'results', 'not-a-result.json'), '{"hello": 1}');
  const { devices, unreadable } = await measuredProfiles(store);
  assert.deepEqual(unreadable, [], 'the read-only run is left out without a note');
  assert.equal(devices.length, 1);
  const [device] = devices;
  assert.equal(device!.id, 'result:20260111-090000-cafe');
  assert.equal(device!.interface, 'usb4');
  assert.equal(device!.cacheBytes, 100e9);
  assert.equal(device!.afterCacheWriteBytesPerSecond, 0.9e9);
  assert.equal(device!.cacheRecoverySeconds, 180);
  assert.equal(device!.readBytesPerSecond, null);
});
