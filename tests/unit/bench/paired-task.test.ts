import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { BenchEvent } from '../../../app/contract/bench-events.js';
import { ResultDocument } from '../../../app/contract/bench-result.js';
import { planSchemaVersion, type Plan } from '../../../app/contract/plan.js';
import { spaceGuardCode } from '../../../app/contract/errors.js';
import { CompressionPool } from '../../../app/core/bench/compression-pool.js';
import { pairingsFor } from '../../../app/common/plan-kind-paired.js';
import { runBenchmark } from '../../../app/core/bench/runner.js';
import type { RunOptions } from '../../../app/core/bench/run-options.js';
import { compressChunks } from '../../../app/core/bench/task.js';
import { taskInput } from '../../../app/core/bench/task-input.js';
import { FakeDrive } from '../../helpers/fake-bench-io.js';

let target: string;
let second: string;
beforeEach(async () => {
  target = await mkdtemp(path.join(os.tmpdir(), 'plumb-pair-a-'));
  second = await mkdtemp(path.join(os.tmpdir(), 'plumb-pair-b-'));
});
afterEach(async () => {
  await rm(target, { recursive: true, force: true });
  await rm(second, { recursive: true, force: true });
});

function options(plan: Plan, extra: Partial<RunOptions> = {}) {
  const events: BenchEvent[] = [];
  const run: RunOptions & { events: BenchEvent[] } = {
    target,
    plan,
    appVersion: '0.0.0-test',
    signal: new AbortController().signal,
    emit: (event) => events.push(BenchEvent.parse(event)),
    reserve: { fraction: 0, minBytes: 0 },
    events,
    ...extra,
  };
  return run;
}

const paired = (direction: 'same' | 'opposite' | 'both'): Plan => ({
  schema: planSchemaVersion,
  name: 'paired',
  kind: 'paired',
  fileBytes: 8e6,
  filesPerStage: 3,
  direction,
});

describe('runBenchmark: paired', () => {
  it('runs each target alone, then both together per pairing, tags every row and cleans both folders', async () => {
    const drive = new FakeDrive({ fastRate: 1e9, readRate: 2e9, latencySeconds: 0 });
    const document = ResultDocument.parse(
      await runBenchmark(options(paired('both'), { pairedWith: second }), drive),
    );
    const rows = document.files.map((f) => `${f.target} ${f.stage} ${f.pairing ?? '-'} ${f.phase}`);
    const count = (row: string) => rows.filter((r) => r === row).length;
    for (const row of [
      'a alone - write',
      'b alone - write',
      'a alone - read',
      'b alone - read',
      'a together write+write write',
      'b together write+write write',
      'a together read+read read',
      'b together read+read read',
      'a together write+read write',
      'b together write+read read',
    ])
      assert.equal(count(row), 3, row);
    assert.equal(rows.length, 30, 'filler transfers are not recorded');
    // Cumulative bytes count per target and phase.
    const aWrites = document.files.filter((f) => f.target === 'a' && f.phase === 'write');
    assert.deepEqual(
      aWrites.map((f) => f.cumulativeBytes),
      [8e6, 16e6, 24e6, 32e6, 40e6, 48e6, 56e6, 64e6, 72e6],
    );
    const section = document.paired!;
    assert.equal(section.targets.b.path, second);
    assert.equal(section.sameVolume, true, 'both temporary folders are on one volume');
    assert.deepEqual(
      section.pairings.map((p) => p.pairing),
      ['write+write', 'read+read', 'write+read'],
    );
    // The fake drive serves each transfer at its own rate whatever runs beside it.
    for (const pairing of section.pairings) {
      assert.equal(pairing.interferes, false, pairing.message);
      assert.equal(pairing.aggregate, pairing.togetherA + pairing.togetherB);
    }
    assert.equal(section.pairings[0]!.aggregate, 2e9);
    assert.equal(section.pairings[2]!.aggregate, 3e9);
    assert.deepEqual(await readdir(target), []);
    assert.deepEqual(await readdir(second), []);
  });

  it('runs only the pairings of the direction asked for', async () => {
    assert.deepEqual(pairingsFor('same'), ['write+write', 'read+read']);
    assert.deepEqual(pairingsFor('opposite'), ['write+read']);
    const document = await runBenchmark(
      options(paired('both'), { pairedWith: second, direction: 'opposite' }),
      new FakeDrive(),
    );
    assert.deepEqual(
      document.paired!.pairings.map((p) => p.pairing),
      ['write+read'],
    );
    assert.equal(
      document.files.filter((f) => f.target === 'a' && f.phase === 'read').length,
      0,
      'a reads nothing when only a writes together',
    );
  });

  it('refuses without a second folder, with the same folder twice, or when it cannot fit', async () => {
    await assert.rejects(runBenchmark(options(paired('same')), new FakeDrive()), {
      code: 'EUSAGE',
    });
    await assert.rejects(
      runBenchmark(options(paired('same'), { pairedWith: target }), new FakeDrive()),
      { code: 'EUSAGE' },
    );
    await assert.rejects(
      runBenchmark(
        options(paired('same'), { pairedWith: second }),
        new FakeDrive({ availableBytes: 50e6 }),
      ),
      { code: spaceGuardCode },
    );
  });

  it('removes both folders when cancelled in the middle', async () => {
    const controller = new AbortController();
    const drive = new FakeDrive({ beforeWrite: (index) => index === 7 && controller.abort() });
    const run = options(paired('both'), { pairedWith: second, signal: controller.signal });
    await assert.rejects(runBenchmark(run, drive), { code: 'ECANCELED' });
    assert.equal(run.events.at(-1)?.type, 'cancelled');
    assert.deepEqual(await readdir(target), []);
    assert.deepEqual(await readdir(second), []);
  });
});

describe('task input and compression', () => {
  it('lays the input out in chunks, the last one short, each a mix of random and repeated blocks', () => {
    const input = taskInput(3 * 65536 * 4 + 1000, 65536 * 4, 0.5, 7);
    assert.equal(input.chunkCount, 4);
    assert.equal(input.chunk(0).length, 65536 * 4);
    assert.equal(input.chunk(3).length, 1000, 'the last chunk is short');
    const all = taskInput(65536 * 8, 65536 * 8, 1, 7).chunk(0);
    const none = taskInput(65536 * 8, 65536 * 8, 0, 7).chunk(0);
    assert.ok(gzipSync(all).length < all.length / 20, 'all repetitive: compresses well');
    assert.ok(gzipSync(none).length > none.length * 0.99, 'all random: does not compress');
  });

  it('compresses chunks in parallel and writes them strictly in order', async () => {
    const input = taskInput(24 * 65536, 2 * 65536, 0.5, 3);
    const pool = new CompressionPool('gzip', 1, 2);
    const parts: Buffer[] = [];
    const order: number[] = [];
    try {
      const outputBytes = await compressChunks({
        chunkCount: input.chunkCount,
        pool,
        signal: new AbortController().signal,
        // Later chunks arrive sooner, so only the gates keep the output in order.
        read: async (index) => {
          await new Promise((resolve) => setTimeout(resolve, (input.chunkCount - index) * 2));
          return input.chunk(index);
        },
        write: async (index, compressed) => {
          order.push(index);
          parts.push(Buffer.from(compressed));
        },
      });
      const output = Buffer.concat(parts);
      assert.equal(outputBytes, output.length);
      assert.deepEqual(
        order,
        Array.from({ length: input.chunkCount }, (_, i) => i),
      );
      const expected = Buffer.concat(
        Array.from({ length: input.chunkCount }, (_, i) => input.chunk(i)),
      );
      assert.ok(gunzipSync(output).equals(expected), 'the gzip members decompress to the input');
      const ratio = output.length / expected.length;
      assert.ok(ratio > 0.3 && ratio < 0.8, `half random, half repetitive: ratio ${ratio}`);
    } finally {
      await pool.close();
    }
  });

  it('stops with ECANCELED when the signal fires', async () => {
    const input = taskInput(16 * 65536, 65536, 0.5, 1);
    const pool = new CompressionPool('gzip', 1, 1);
    const controller = new AbortController();
    try {
      await assert.rejects(
        compressChunks({
          chunkCount: input.chunkCount,
          pool,
          signal: controller.signal,
          read: async (index) => {
            if (index === 3) controller.abort();
            return input.chunk(index);
          },
          write: async () => undefined,
        }),
        { code: 'ECANCELED' },
      );
    } finally {
      await pool.close();
    }
  });
});

describe('runBenchmark: task', () => {
  it('times the task on the disk and in memory, gives a verdict and removes its files', async () => {
    const plan: Plan = {
      schema: planSchemaVersion,
      name: 'task',
      kind: 'task',
      inputBytes: 2 * 1024 * 1024,
      chunkBytes: 256 * 1024,
      codec: 'gzip',
      level: 1,
      workers: 2,
      compressibleShare: 0.5,
      repeats: 2,
    };
    const run = options(plan);
    const document = ResultDocument.parse(await runBenchmark(run, new FakeDrive()));
    const task = document.task!;
    assert.equal(task.codec, 'gzip');
    assert.equal(task.workers, 2);
    assert.deepEqual(
      task.runs.map((r) => r.where),
      ['disk', 'memory', 'disk', 'memory'],
    );
    for (const r of task.runs) {
      assert.equal(r.inputBytes, 2 * 1024 * 1024);
      assert.ok(r.rate > 0 && r.outputBytes > 0);
    }
    // The input is drawn from the run's seed, so its share of random blocks varies from run to
    // run: the ratio is checked against the same chunks compressed here, one gzip member each.
    const input = taskInput(
      plan.inputBytes,
      plan.chunkBytes,
      plan.compressibleShare,
      Number(document.plan.seed),
    );
    let expectedBytes = 0;
    for (let i = 0; i < input.chunkCount; i++)
      expectedBytes += gzipSync(input.chunk(i), { level: 1 }).length;
    const expected = expectedBytes / plan.inputBytes;
    assert.ok(
      Math.abs(task.compressionRatio - expected) < 0.02,
      `compression ratio ${task.compressionRatio}, the same chunks compressed here ${expected}`,
    );
    assert.equal(task.diskRate, Math.max(task.runs[0]!.rate, task.runs[2]!.rate));
    assert.ok(['disk-bound', 'partly-disk-bound', 'cpu-bound'].includes(task.verdict));
    assert.deepEqual(
      document.files.map((f) => f.phase),
      ['write', 'read', 'read'],
      'the disk rates: one write of the input size, one uncached read per repeat',
    );
    assert.deepEqual(await readdir(target), []);
  });
});
