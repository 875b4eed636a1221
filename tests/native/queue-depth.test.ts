import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { QueueDepthResult, QueueEngineName, QueueSample } from '../../native/index.js';
import { loadNative } from '../../app/core/native/load.js';
import { mountTmpfs, tmpfsSkipReason } from '../helpers/loopfs.js';

const native = loadNative();
const MiB = 1024 * 1024;
let dir = '';
let testFile = '';

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'plumb-qd-'));
  testFile = path.join(dir, 'test.bin');
  await native.timedWrite(testFile, 64 * MiB);
});
after(() => rmSync(dir, { recursive: true, force: true }));

function checkResult(result: QueueDepthResult, samples: QueueSample[]): void {
  assert.ok(result.bytes > 0 && result.seconds > 0);
  assert.ok(
    Math.abs(result.bytesPerSecond - result.bytes / result.seconds) < 1e-6 * result.bytesPerSecond,
  );
  assert.ok(
    Math.abs(result.iops * result.blockSize - result.bytesPerSecond) < 1e-6 * result.bytesPerSecond,
  );
  const l = result.latency;
  assert.ok(l.p50 > 0 && l.p50 <= l.p90 && l.p90 <= l.p99 && l.p99 <= l.p999 && l.p999 <= l.max);
  assert.ok(l.mean > 0 && l.mean <= l.max);
  // One onSample call per sample, the same samples the result lists, in time order.
  assert.deepEqual(samples, result.samples);
  for (let i = 1; i < samples.length; i += 1) assert.ok(samples[i]!.t > samples[i - 1]!.t);
  assert.ok(Math.abs(samples.at(-1)!.t - result.seconds) < 0.05);
}

for (const engine of ['io_uring', 'libaio', 'threads'] as QueueEngineName[]) {
  test(`4 KiB random reads at QD16 with ${engine}: percentiles, and one event per sample`, async (t) => {
    const samples: QueueSample[] = [];
    let result: QueueDepthResult;
    try {
      result = await native.queueDepthRun(testFile, {
        op: 'randread',
        blockSize: 4096,
        queueDepth: 16,
        fileBytes: 64 * MiB,
        durationSeconds: 0.5,
        sampleIntervalMs: 50,
        engine,
        onSample: (s) => samples.push(s),
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTSUP') {
        return t.skip(`${engine} is not available here: ${(error as Error).message}`);
      }
      throw error;
    }
    assert.equal(result.engine, engine);
    assert.equal(result.cacheMode, 'direct');
    assert.equal(result.op, 'randread');
    assert.equal(result.queueDepth, 16);
    assert.ok(samples.length >= 8 && samples.length <= 12, `${samples.length} samples`);
    checkResult(result, samples);
  });
}

test('without an engine option the best available one runs, and a byte budget is exact', async () => {
  const result = await native.queueDepthRun(testFile, {
    op: 'read',
    blockSize: MiB,
    queueDepth: 4,
    fileBytes: 64 * MiB,
    totalBytes: 32 * MiB,
  });
  assert.ok(['io_uring', 'libaio', 'threads'].includes(result.engine));
  assert.equal(result.bytes, 32 * MiB);
});

test('sequential writes with two threads stop at the byte budget and create the test file', async () => {
  const file = path.join(dir, 'fresh.bin');
  const samples: QueueSample[] = [];
  const result = await native.queueDepthRun(file, {
    op: 'write',
    blockSize: 128 * 1024,
    queueDepth: 4,
    threads: 2,
    fileBytes: 16 * MiB,
    totalBytes: 48 * MiB,
    onSample: (s) => samples.push(s),
  });
  assert.equal(result.bytes, 48 * MiB);
  assert.equal(result.threads, 2);
  assert.equal(statSync(file).size, 16 * MiB);
  checkResult(result, samples);
});

test('tmpfs: buffered, libaio refused with ENOTSUP, the test file this call made removed', async (t) => {
  const reason = tmpfsSkipReason();
  if (reason) return t.skip(reason);
  const fs = mountTmpfs(32 * MiB);
  try {
    const file = path.join(fs.dir, 'q.bin');
    const result = await native.queueDepthRun(file, {
      op: 'randwrite',
      blockSize: 4096,
      queueDepth: 8,
      fileBytes: 8 * MiB,
      durationSeconds: 0.2,
    });
    assert.equal(result.cacheMode, 'buffered');
    assert.ok(result.iops > 0);
    const other = path.join(fs.dir, 'other.bin');
    await assert.rejects(
      native.queueDepthRun(other, {
        op: 'randread',
        blockSize: 4096,
        queueDepth: 8,
        fileBytes: 8 * MiB,
        durationSeconds: 0.2,
        engine: 'libaio',
      }),
      { code: 'ENOTSUP', path: other },
    );
    assert.equal(existsSync(other), false);
  } finally {
    fs.unmount();
  }
});

// The run looks for a cancel every 5 ms, so it stops in milliseconds; the bound leaves
// room for a busy machine (see timed-io.test.ts), while one that ran out its time would take 60 s.
test('cancel stops a queue-depth run within a second', async () => {
  const cancel = native.createCancel();
  let cancelledAt = 0;
  const run = native.queueDepthRun(testFile, {
    op: 'randread',
    blockSize: 4096,
    queueDepth: 32,
    fileBytes: 64 * MiB,
    durationSeconds: 60,
    cancel,
    onSample: () => {
      if (!cancel.cancelled) {
        cancelledAt = performance.now();
        cancel.cancel();
      }
    },
  });
  await assert.rejects(run, { code: 'ECANCELED' });
  const stoppedAfter = performance.now() - cancelledAt;
  assert.ok(stoppedAfter < 1000, `stopped ${stoppedAfter.toFixed(1)} ms after cancel`);
  assert.ok(existsSync(testFile), 'a test file that existed before is kept');
});

test('cancel while the test file is being made removes it', async () => {
  const file = path.join(dir, 'half-made.bin');
  const cancel = native.createCancel();
  const run = native.queueDepthRun(file, {
    op: 'randread',
    blockSize: 4096,
    queueDepth: 1,
    fileBytes: 4 * 1024 * MiB,
    durationSeconds: 1,
    cancel,
  });
  setTimeout(() => cancel.cancel(), 50);
  await assert.rejects(run, { code: 'ECANCELED', path: file });
  assert.equal(existsSync(file), false);
});
