import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResultDocument } from '../../../app/contract/bench-result.js';
import { headline } from '../../../app/common/headline-rate.js';
import { withHeadline } from '../../../app/core/analysis/headline-rate.js';
import { runPace } from '../../../app/core/bench/pace.js';

/** A run of `count` files per phase, each costing `fileSeconds` plus its bytes at `rate`. */
function run(count: number, fileSeconds: number, rate: number, outsideSeconds: number) {
  const files: ResultDocument['files'] = [];
  const wall = { write: 0, read: 0 };
  for (const phase of ['write', 'read'] as const) {
    let t = 0;
    for (let i = 0; i < count; i += 1) {
      const bytes = 1e6 * (1 + ((i * 7919) % 13));
      t += fileSeconds + bytes / rate;
      files.push({
        phase,
        bytes,
        seconds: bytes / rate,
        cumulativeBytes: 0,
        t,
        temperatureC: null,
      });
    }
    wall[phase] = t;
  }
  // The summary's figures are another rule's: the pace must take the headline, from the files.
  const summary = { median: rate / 2, theilSen: { rate: rate * 1.5, latency: 0 } };
  const startedAt = new Date(Date.UTC(2026, 0, 1)).toISOString();
  const total = wall.write + wall.read + outsideSeconds;
  return {
    plan: { name: 'standard' },
    startedAt,
    finishedAt: new Date(Date.parse(startedAt) + total * 1000).toISOString(),
    files,
    summary: { write: summary, read: summary },
  } as unknown as ResultDocument;
}

test('the pace of a run: per-file wall cost, the headline rate, and the time outside its phases', () => {
  const fileSeconds = 0.005 + Math.random() * 0.02;
  const rate = (0.3 + Math.random()) * 1e9;
  const document = run(80, fileSeconds, rate, 0.4);
  const pace = runPace(document)!;
  assert.ok(Math.abs(pace.write!.bytesPerSecond / rate - 1) < 1e-9);
  assert.equal(pace.write!.bytesPerSecond, headline(withHeadline(document), 'write').rate);
  assert.ok(Math.abs(pace.write!.fileSeconds - fileSeconds) < 1e-9);
  assert.ok(Math.abs(pace.read!.fileSeconds - fileSeconds) < 1e-9);
  assert.ok(Math.abs(pace.runSeconds - 0.4) < 0.002); // ISO times keep milliseconds
});

test('no pace without files or an end time', () => {
  const document = run(3, 0.01, 1e9, 0.1);
  assert.equal(runPace({ ...document, files: [] }), null);
  assert.equal(runPace({ ...document, finishedAt: undefined }), null);
});

test('a grid run gives the wall seconds each of its runs costs beyond its set duration', () => {
  const startedAt = '2026-01-01T00:00:00.000Z';
  const grid = {
    plan: { name: 'presets', durationSeconds: 0.25 },
    startedAt,
    finishedAt: '2026-01-01T00:00:03.200Z',
    files: [],
    runs: Array.from({ length: 8 }, () => ({})),
  } as unknown as ResultDocument;
  const pace = runPace(grid)!;
  assert.equal(pace.write, null);
  assert.ok(Math.abs(pace.queueRunSeconds! - (3.2 - 8 * 0.25) / 8) < 1e-9);
});
