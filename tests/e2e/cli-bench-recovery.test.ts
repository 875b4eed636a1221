// plumb-test: alone (it measures rates or times on a throttled disk; see scripts/test.mjs)
/**
 * The sustained plan's recovery probe on a real disk: a loop-mounted ext4 whose write throttle
 * drops from 20 to 10 MB/s after 80 MB (a full SLC cache) and rises back to 20 MB/s once the
 * disk has rested 5 s after the heavy writing (the cache emptied). The probes — idle 1 s, then
 * 8 MB — must time a recovery close to those 5 s: no earlier, and no later than one idle-and-probe
 * step (1 s + 0.8 s at the slow rate) plus a little.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { loopSkipReason } from '../helpers/loopfs.js';
import {
  mountThrottledDisk,
  runPlumbThrottled,
  throttleSkipReason,
  type WriteThrottle,
} from '../helpers/throttle.js';

const fastRate = 20e6;
const slowRate = 10e6;
const cliffBytes = 80e6;
const totalBytes = 160e6;
const recoverySeconds = 5;
const idleSeconds = 1;
const probeBytes = 8e6;
/** The most a probe series can overshoot: one idle plus one slow probe, and polling slack. */
const step = idleSeconds + probeBytes / slowRate + 0.3;

const skip = loopSkipReason('ext4') ?? throttleSkipReason();
if (skip) console.log(`# skipping the recovery-probe test: ${skip}`);

describe('plumb bench sustained: recovery probe on a throttled disk', { skip }, () => {
  let disk: ReturnType<typeof mountThrottledDisk> | undefined;
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'plumb-recovery-'));
    disk = mountThrottledDisk(256 * 1024 * 1024, fastRate);
  });
  after(async () => {
    disk?.remove();
    await rm(work, { recursive: true, force: true });
  });

  it('reports a recovery time close to the emulated one', async () => {
    const plan = path.join(work, 'recovery.json');
    await writeFile(
      plan,
      JSON.stringify({
        schema: 'plumb.plan/1',
        name: 'recovery-test',
        kind: 'sustained',
        minFileBytes: 16e6,
        maxFileBytes: 16e6,
        totalBytes,
        seed: 1,
        recovery: { idleSeconds, probeBytes, maxProbes: 12 },
      }),
    );
    const out = path.join(work, 'result.json');
    const lower = disk!.throttle.lowerAfter(cliffBytes, slowRate);
    // The heavy writing is over once the device has taken all of it and then been quiet for half
    // an idle step. (Waiting for the bytes first: a pause in the writing, on a busy machine, once
    // passed for the end, and the cap came back up before the first probe.) The second lowerAfter
    // sets the rate it already has; it is there to wait for the bytes.
    const allWritten = disk!.throttle.lowerAfter(totalBytes, slowRate);
    let raise: ReturnType<WriteThrottle['raiseAfterIdle']> | undefined;
    void allWritten.done.then(() => {
      raise = disk!.throttle.raiseAfterIdle(idleSeconds / 2, recoverySeconds, fastRate);
    });
    const result = await runPlumbThrottled(
      disk!.throttle,
      ['bench', disk!.fs.dir, '--plan', plan, '--reserve', '16MB', '--json', out],
      { PLUMB_DATA_DIR: path.join(work, 'data') },
    );
    lower.stop();
    allWritten.stop();
    raise?.stop();
    assert.equal(result.status, 0, result.stderr);
    const raisedAfter = raise ? await Promise.race([raise.done, Promise.resolve(null)]) : null;
    assert.ok(raisedAfter !== null, 'the throttle was raised again while the probes ran');

    const document = ResultDocument.parse(JSON.parse(await readFile(out, 'utf8')));
    const recovery = document.recovery;
    assert.ok(recovery, `a recovery probe ran: ${JSON.stringify(document.findings)}`);
    console.log(
      `# probes: ${recovery.probes.map((p) => `${p.idleSeconds.toFixed(1)} s ${(p.rate / 1e6).toFixed(1)} MB/s`).join(', ')}; ` +
        `recovered after ${recovery.recoverySeconds?.toFixed(2)} s (emulated ${recoverySeconds} s, raised ${raisedAfter.toFixed(2)} s after the last write)`,
    );
    assert.ok(recovery.recoverySeconds !== null, 'the rate came back');
    assert.ok(
      recovery.recoverySeconds >= recoverySeconds - 0.5 &&
        recovery.recoverySeconds <= recoverySeconds + step,
      `recovery ${recovery.recoverySeconds} s against ${recoverySeconds} s`,
    );
    // Probes before the raise were slow, the last one fast.
    const last = recovery.probes.at(-1)!;
    assert.ok(last.rate >= 0.9 * fastRate, `last probe ${last.rate}`);
    assert.ok(recovery.probes.slice(0, -1).every((p) => p.rate < 0.9 * fastRate));
    const cliff = document.findings.find((f) => f.kind === 'cliff');
    assert.ok(cliff && cliff.kind === 'cliff');
    assert.equal(cliff.recoverySeconds, recovery.recoverySeconds);
    assert.match(result.stdout, /Recovery: the write rate was back after \d+ s idle/);
    assert.deepEqual(
      (await readdir(disk!.fs.dir)).filter((n) => n.startsWith('plumb-test-')),
      [],
    );
  });
});
