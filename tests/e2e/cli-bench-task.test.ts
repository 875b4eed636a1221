// plumb-test: alone (it measures rates or times on a throttled disk; see scripts/test.mjs)
/**
 * The task plan end to end. On a plain folder at a small scale it runs, cleans up and gives a
 * verdict; on a loop-mounted ext4 whose reads are throttled to 8 MB/s (far below what two cores
 * compress at) the task must come out disk-bound, limited by reading.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { runPlumb } from '../helpers/cli.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import {
  createWriteThrottle,
  runPlumbThrottled,
  throttleSkipReason,
  type WriteThrottle,
} from '../helpers/throttle.js';

const readRate = 8e6;

describe('plumb bench --plan task', () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'plumb-task-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('runs the built-in task small, says whether it is disk-bound and leaves nothing behind', async () => {
    const target = await mkdtemp(path.join(work, 'target-'));
    const result = runPlumb(
      ['bench', target, '--plan', 'task', '--scale', '0.004', '--reserve', '64MB', '--json', '-'],
      { env: { PLUMB_DATA_DIR: path.join(work, 'data') } },
    );
    assert.equal(result.status, 0, result.stderr);
    const document = ResultDocument.parse(JSON.parse(result.stdout));
    const task = document.task!;
    assert.equal(task.inputBytes, document.plan.inputBytes);
    assert.equal(task.workers, os.availableParallelism());
    assert.equal(task.runs.length, 4);
    assert.ok(task.diskRate > 0 && task.memoryRate > 0);
    assert.ok(
      task.compressionRatio > 0.3 && task.compressionRatio < 0.8,
      `${task.compressionRatio}`,
    );
    assert.match(task.message, /on this volume and .* in memory/);
    // The processor is weighed: with the disk busy at most half the time at the in-memory pace
    // (its read and write rates as measured in the same run), the processor limits the task.
    // Bytes over seconds of the phase's files, as task.ts measures the disk (reads: every repeat).
    const rateOf = (phase: 'write' | 'read') => {
      const files = document.files.filter((f) => f.phase === phase);
      return (
        files.reduce((sum, f) => sum + f.bytes, 0) / files.reduce((sum, f) => sum + f.seconds, 0)
      );
    };
    const load =
      task.memoryRate / rateOf('read') +
      (task.memoryRate * task.compressionRatio) / rateOf('write');
    console.log(
      `# memory ${(task.memoryRate / 1e6).toFixed(1)} MB/s on ${task.workers} threads, disk load ${(load * 100).toFixed(0)} %: ${task.verdict}`,
    );
    assert.ok(Math.abs(task.diskLoad! - load) <= 1e-9 * load);
    if (load <= 0.5) {
      assert.equal(task.verdict, 'cpu-bound');
      assert.equal(task.limit, 'cpu');
      assert.match(task.message, /the processor limits it/);
    } else assert.notEqual(task.limit, undefined);
    assert.deepEqual(await readdir(target), []);
  });

  const skip = loopSkipReason('ext4') ?? throttleSkipReason();
  if (skip) console.log(`# skipping the throttled task test: ${skip}`);

  describe('on a disk that reads at 8 MB/s', { skip }, () => {
    let fs: MountedFs | undefined;
    let throttle: WriteThrottle | undefined;
    before(() => {
      fs = mountLoopFs('ext4', { sizeBytes: 128 * 1024 * 1024, directIo: true });
      throttle = createWriteThrottle(fs.device!, 1e12);
      throttle.setReadBytesPerSecond(readRate);
    });
    after(() => {
      throttle?.remove();
      fs?.unmount();
    });

    it('is disk-bound, limited by reading', async () => {
      const plan = path.join(work, 'task.json');
      await writeFile(
        plan,
        JSON.stringify({
          schema: 'plumb.plan/1',
          name: 'task-test',
          kind: 'task',
          inputBytes: 16 * 1024 * 1024,
          chunkBytes: 1024 * 1024,
          codec: 'gzip',
          level: 1,
          repeats: 1,
        }),
      );
      const out = path.join(work, 'task-result.json');
      const result = await runPlumbThrottled(
        throttle!,
        ['bench', fs!.dir, '--plan', plan, '--reserve', '8MB', '--json', out],
        { PLUMB_DATA_DIR: path.join(work, 'data') },
      );
      assert.equal(result.status, 0, result.stderr);
      const document = ResultDocument.parse(JSON.parse(await readFile(out, 'utf8')));
      const task = document.task!;
      console.log(
        `# disk ${(task.diskRate / 1e6).toFixed(1)} MB/s, memory ${(task.memoryRate / 1e6).toFixed(1)} MB/s: ${task.verdict}`,
      );
      const read = document.files.find((f) => f.phase === 'read')!;
      assert.ok(Math.abs(read.bytes / read.seconds - readRate) <= 0.15 * readRate, 'uncached read');
      assert.ok(
        task.diskRate <= 1.15 * readRate,
        `the task cannot read faster than the disk: ${task.diskRate}`,
      );
      assert.equal(task.verdict, 'disk-bound');
      assert.equal(task.limitedBy, 'read');
      assert.match(result.stdout, /disk-bound: .*Reading is the likelier limit/);
      assert.deepEqual(
        (await readdir(fs!.dir)).filter((n) => n.startsWith('plumb-test-')),
        [],
      );
    });
  });
});
