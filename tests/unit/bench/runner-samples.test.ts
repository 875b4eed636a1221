/**
 * The runner with samples inside files (the pretend drive takes them as the native sampler does):
 * the built-in sustained plan's big files hide a cache's end inside one of them, and the samples
 * still place it; the result stores them per phase in columns, with the run's scale.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { BenchEvent } from '../../../app/contract/bench-events.js';
import { ResultDocument } from '../../../app/contract/bench-result.js';
import type { Plan } from '../../../app/contract/plan.js';
import { builtinPlan } from '../../../app/core/bench/builtin-plans.js';
import { scalePlan } from '../../../app/core/bench/plans.js';
import { resultJson } from '../../../app/core/bench/results-store.js';
import { runBenchmark } from '../../../app/core/bench/runner.js';
import { FakeDrive } from '../../helpers/fake-bench-io.js';

let target: string;
beforeEach(async () => {
  target = await mkdtemp(path.join(os.tmpdir(), 'plumb-run-samples-'));
});
afterEach(async () => {
  await rm(target, { recursive: true, force: true });
});

const run = (plan: Plan, drive: FakeDrive, extra: { scale?: number; totalBytes?: number }) => {
  const events: BenchEvent[] = [];
  const document = runBenchmark(
    {
      target,
      plan,
      appVersion: '0.0.0-test',
      signal: new AbortController().signal,
      emit: (event) => events.push(BenchEvent.parse(event)),
      reserve: { fraction: 0.1, minBytes: 0 },
      ...extra,
    },
    drive,
  );
  return { document, events };
};

describe('runBenchmark with samples inside files', () => {
  it('places a cache that ends inside a 200 MB–2 GB file, and stores the samples', async () => {
    // 700 MB/s for the first 2.9 GB, 150 MB/s after: the disk, on the plan as shipped.
    const cacheBytes = 2.9e9;
    const drive = new FakeDrive({ fastRate: 700e6, slowRate: 150e6, cacheBytes, samples: true });
    const plan = builtinPlan('sustained') as Extract<Plan, { kind: 'sustained' }>;
    const { document: pending, events } = run({ ...plan, recovery: null }, drive, {
      totalBytes: 12e9,
    });
    const document = ResultDocument.parse(await pending);
    assert.equal(document.scale, 1);
    const samples = document.samplesByPhase?.write;
    assert.ok(samples);
    assert.equal(samples.t.length, samples.bytes.length);
    assert.equal(samples.file.length, samples.t.length);
    assert.equal(samples.bytes.at(-1), document.files.at(-1)!.cumulativeBytes);
    // Never coarser than 20 MiB (the planned 12 GB's thousandth is 12 MB: at most one chunk over).
    for (let i = 1; i < samples.t.length; i += 1) {
      if (samples.file[i] !== samples.file[i - 1]) continue;
      assert.ok(samples.bytes[i]! - samples.bytes[i - 1]! <= 12e6 + 4 * 2 ** 20, `sample ${i}`);
    }
    const cliff = document.findings.find((f) => f.kind === 'cliff');
    assert.ok(cliff && cliff.kind === 'cliff', JSON.stringify(document.findings));
    assert.ok(Math.abs(cliff.atBytes - cacheBytes) < 0.01 * cacheBytes, `at ${cliff.atBytes}`);
    assert.ok(Math.abs(cliff.beforeRate / 700e6 - 1) < 0.02);
    assert.ok(Math.abs(cliff.afterRate / 150e6 - 1) < 0.02);
    assert.equal(cliff.steps?.length, 2);
    // Stored with each column on one line, and read back the same.
    const json = resultJson(document);
    assert.deepEqual(JSON.parse(json), JSON.parse(JSON.stringify(document)));
    assert.ok(json.split('\n').length < 2000, `${json.split('\n').length} lines`);
    // Live: the sample events say where in the phase they are, and the cliff is marked early.
    const live = events.filter((e) => e.type === 'sample' && e.phase === 'write');
    assert.ok(live.every((e) => e.type === 'sample' && e.t !== undefined && e.file !== undefined));
    const marked = events.find((e) => e.type === 'finding');
    assert.ok(marked?.type === 'finding' && marked.finding.kind === 'cliff', 'a live cliff');
    assert.ok(Math.abs(marked.finding.atBytes - cacheBytes) < 0.05 * cacheBytes);
  });

  it('times the recovery probe from its samples, and records the scale of a quick run', async () => {
    const drive = new FakeDrive({
      fastRate: 2e9,
      slowRate: 0.5e9,
      cacheBytes: 1e9,
      drainRate: 0.05e9,
      samples: true,
    });
    const plan = scalePlan(builtinPlan('sustained')!, 0.1);
    const { document: pending } = run(plan, drive, { scale: 0.1, totalBytes: 3e9 });
    const document = ResultDocument.parse(await pending);
    assert.equal(document.scale, 0.1);
    const recovery = document.recovery;
    assert.ok(recovery && recovery.recoverySeconds !== null, JSON.stringify(recovery));
    // 30 s idle drains 1.5 GB here: the first 200 MB probe finds the cache empty.
    assert.equal(recovery.probes.length, 1);
    const probe = document.samplesByPhase?.recovery;
    assert.ok(probe && probe.file.every((f) => f === 0));
  });
});
