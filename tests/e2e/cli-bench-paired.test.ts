// plumb-test: alone (it measures rates or times on a throttled disk; see scripts/test.mjs)
/**
 * The paired plan on real disks: loop-mounted ext4 file systems (direct I/O to their images),
 * one of them under a 20 MB/s write throttle, so what "together" must give is known:
 *  - two folders on the throttled volume share its 20 MB/s: together they move 20 MB/s in all,
 *    half of what they did one at a time, and Plumb must say they interfere;
 *  - the throttled volume beside an unthrottled one keeps its 20 MB/s together, and the
 *    aggregate is its rate plus the other's.
 * Files are 24 MB (1.2 s each at 20 MB/s) for the reason given in cli-bench-throttle.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import {
  createWriteThrottle,
  quietExt4Options,
  runPlumbThrottled,
  throttleSkipReason,
  type WriteThrottle,
} from '../helpers/throttle.js';

const throttledRate = 20e6;
const within = (actual: number, expected: number, share = 0.1) =>
  Math.abs(actual - expected) <= share * expected;

const skip = loopSkipReason('ext4') ?? throttleSkipReason();
if (skip) console.log(`# skipping the paired-disk test: ${skip}`);

const mkfsArgs = quietExt4Options;

describe('plumb bench --plan paired on two real disks', { skip }, () => {
  let slow: MountedFs | undefined;
  let fast: MountedFs | undefined;
  let throttle: WriteThrottle | undefined;
  let work: string;
  let plan: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'plumb-paired-'));
    slow = mountLoopFs('ext4', { sizeBytes: 384 * 1024 * 1024, directIo: true, mkfsArgs });
    fast = mountLoopFs('ext4', { sizeBytes: 256 * 1024 * 1024, directIo: true, mkfsArgs });
    throttle = createWriteThrottle(slow.device!, throttledRate);
    plan = path.join(work, 'paired.json');
    await writeFile(
      plan,
      JSON.stringify({
        schema: 'plumb.plan/1',
        name: 'paired-test',
        kind: 'paired',
        fileBytes: 24e6,
        filesPerStage: 3,
      }),
    );
  });
  after(async () => {
    throttle?.remove();
    slow?.unmount();
    fast?.unmount();
    await rm(work, { recursive: true, force: true });
  });

  async function bench(dirA: string, dirB: string, extra: string[]) {
    const out = path.join(work, `result-${path.basename(dirB)}.json`);
    const result = await runPlumbThrottled(
      throttle!,
      ['bench', dirA, '--plan', plan, '--with', dirB, '--reserve', '16MB', '--json', out, ...extra],
      { PLUMB_DATA_DIR: path.join(work, 'data') },
    );
    assert.equal(result.status, 0, result.stderr);
    const document = ResultDocument.parse(JSON.parse(await readFile(out, 'utf8')));
    return { document, stdout: result.stdout };
  }

  it('two folders on one throttled volume share its 20 MB/s, and Plumb says they interfere', async () => {
    const one = path.join(slow!.dir, 'one');
    const two = path.join(slow!.dir, 'two');
    await mkdir(one);
    await mkdir(two);
    const { document, stdout } = await bench(one, two, ['--direction', 'same']);
    assert.equal(document.environment.cacheMode, 'direct');
    const section = document.paired!;
    assert.equal(section.sameVolume, true);
    const writes = section.pairings.find((p) => p.pairing === 'write+write')!;
    console.log(
      `# one volume: alone ${(writes.aloneA / 1e6).toFixed(1)} + ${(writes.aloneB / 1e6).toFixed(1)} MB/s, ` +
        `together ${(writes.togetherA / 1e6).toFixed(1)} + ${(writes.togetherB / 1e6).toFixed(1)} = ${(writes.aggregate / 1e6).toFixed(1)} MB/s`,
    );
    assert.ok(within(writes.aloneA, throttledRate), `a alone ${writes.aloneA}`);
    assert.ok(within(writes.aloneB, throttledRate), `b alone ${writes.aloneB}`);
    assert.ok(within(writes.aggregate, throttledRate), `aggregate ${writes.aggregate}`);
    assert.ok(within(writes.retained, 0.5, 0.2), `retained ${writes.retained}`);
    assert.equal(writes.interferes, true);
    assert.match(stdout, /write\+write\s+interfere\s+Both writing: .*they share one volume/);
    assert.deepEqual(
      section.pairings.map((p) => p.pairing),
      ['write+write', 'read+read'],
    );
    // Every row says which folder and stage it belongs to.
    for (const row of document.files) assert.ok(row.target && row.stage, JSON.stringify(row));
    assert.deepEqual(await readdir(one), []);
    assert.deepEqual(await readdir(two), []);
  });

  it('the throttled volume keeps its rate beside an unthrottled one; the aggregate adds up', async () => {
    const { document } = await bench(slow!.dir, fast!.dir, ['--direction', 'same']);
    const section = document.paired!;
    assert.equal(section.sameVolume, false);
    assert.equal(section.targets.b.path, fast!.dir);
    const writes = section.pairings.find((p) => p.pairing === 'write+write')!;
    console.log(
      `# two volumes: alone ${(writes.aloneA / 1e6).toFixed(1)} + ${(writes.aloneB / 1e6).toFixed(1)} MB/s, ` +
        `together ${(writes.togetherA / 1e6).toFixed(1)} + ${(writes.togetherB / 1e6).toFixed(1)} = ${(writes.aggregate / 1e6).toFixed(1)} MB/s`,
    );
    // The throttle's own rate varies from run to run (18.0 and 20.0 MB/s alone at a set 20), and
    // the other disk's 1.3 GB/s takes CPU on this 2-core VM: "keeps its rate" is judged against
    // what the throttled disk did alone in the same run.
    assert.ok(within(writes.aloneA, throttledRate, 0.15), `a alone ${writes.aloneA}`);
    assert.ok(
      within(writes.togetherA, writes.aloneA, 0.15),
      `a together ${writes.togetherA}, alone ${writes.aloneA}`,
    );
    assert.equal(writes.aggregate, writes.togetherA + writes.togetherB);
    assert.ok(
      writes.aloneB > 5 * throttledRate,
      `the unthrottled disk is much faster: ${writes.aloneB}`,
    );
    assert.ok(
      writes.aggregate >= throttledRate + 0.5 * writes.aloneB,
      `together they move about the throttled rate plus the other's: ${writes.aggregate}`,
    );
    assert.deepEqual(
      (await readdir(slow!.dir)).filter((n) => n.startsWith('plumb-test-')),
      [],
    );
    assert.deepEqual(
      (await readdir(fast!.dir)).filter((n) => n.startsWith('plumb-test-')),
      [],
    );
  });
});
