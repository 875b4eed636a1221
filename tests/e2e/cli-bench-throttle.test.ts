// plumb-test: alone (it measures rates or times on a throttled disk; see scripts/test.mjs)
/**
 * The sustained plan on a real slow disk with a cliff: a loop-mounted ext4 (direct I/O to its
 * image) whose write throttle drops from 20 MB/s to 10 MB/s after N = 120 MB, as an SLC cache
 * running out would. Plumb must find the cliff within 10 % of N and both rates within 10 %.
 *
 * Files are 20–32 MB because the kernel's throttle lets each new 100 ms slice start with up to
 * a slice's worth of credit: on files that take well under a second that burst inflates the
 * per-file rate (2–8 MB files at 40 MB/s measured 57 MB/s); at 1–3 s per file it is a few %.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { loopSkipReason } from '../helpers/loopfs.js';
import { mountThrottledDisk, runPlumbThrottled, throttleSkipReason } from '../helpers/throttle.js';

const cliffBytes = 120e6;
const fastRate = 20e6;
const slowRate = 10e6;

const skip = loopSkipReason('ext4') ?? throttleSkipReason();
if (skip) console.log(`# skipping the throttled-disk test: ${skip}`);

describe('plumb bench on a throttled disk', { skip }, () => {
  let disk: ReturnType<typeof mountThrottledDisk> | undefined;
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'plumb-throttle-'));
    disk = mountThrottledDisk(384 * 1024 * 1024, fastRate);
  });
  after(async () => {
    disk?.remove();
    await rm(work, { recursive: true, force: true });
  });

  it('finds the cliff within 10 % of where the throttle dropped, and both rates within 10 %', async () => {
    const plan = path.join(work, 'cliff.json');
    await writeFile(
      plan,
      JSON.stringify({
        schema: 'plumb.plan/1',
        name: 'cliff-test',
        kind: 'sustained',
        minFileBytes: 20e6,
        maxFileBytes: 32e6,
        totalBytes: 250e6,
        seed: 5,
      }),
    );
    const out = path.join(work, 'result.json');
    const controller = disk!.throttle.lowerAfter(cliffBytes, slowRate);
    const result = await runPlumbThrottled(
      disk!.throttle,
      ['bench', disk!.fs.dir, '--plan', plan, '--reserve', '16MB', '--json', out],
      { PLUMB_DATA_DIR: path.join(work, 'data') },
    );
    controller.stop();
    assert.equal(result.status, 0, result.stderr);
    const loweredAt = await Promise.race([controller.done, Promise.resolve(null)]);
    assert.ok(loweredAt !== null, 'the throttle was lowered during the run');

    const document = ResultDocument.parse(JSON.parse(await readFile(out, 'utf8')));
    if (process.env.PLUMB_DEBUG_THROTTLE)
      console.log(
        document.files
          .map(
            (f) =>
              `${(f.bytes / 1e6).toFixed(1)}MB ${(f.bytes / f.seconds / 1e6).toFixed(1)}MB/s ${JSON.stringify((f as { timings?: unknown }).timings)}`,
          )
          .join('\n'),
      );
    assert.equal(document.environment.cacheMode, 'direct');
    const cliff = document.findings.find((f) => f.kind === 'cliff' || f.kind === 'throttling');
    assert.ok(
      cliff && (cliff.kind === 'cliff' || cliff.kind === 'throttling'),
      JSON.stringify(document.findings),
    );
    console.log(
      `# cliff at ${(cliff.atBytes / 1e6).toFixed(1)} MB (throttle lowered at ${(loweredAt / 1e6).toFixed(1)} MB device bytes), ` +
        `${(cliff.beforeRate / 1e6).toFixed(1)} → ${(cliff.afterRate / 1e6).toFixed(1)} MB/s`,
    );
    assert.ok(
      Math.abs(cliff.atBytes - cliffBytes) <= 0.1 * cliffBytes,
      `cliff at ${cliff.atBytes}`,
    );
    assert.ok(
      Math.abs(cliff.beforeRate - fastRate) <= 0.1 * fastRate,
      `before ${cliff.beforeRate}`,
    );
    assert.ok(Math.abs(cliff.afterRate - slowRate) <= 0.1 * slowRate, `after ${cliff.afterRate}`);
    assert.match(
      result.stdout,
      // Found on the samples inside the files: the rate of each step and where it begins.
      /cliff: Write speed fell: about 1\d\d MB at \d+\.\d+ MB\/s, then \d+\.\d+ MB\/s\./,
    );
    assert.deepEqual(
      (await readdir(disk!.fs.dir)).filter((n) => n.startsWith('plumb-test-')),
      [],
      'the test files are gone',
    );
  });
});
