import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  driveRateMinBytes,
  headline,
  headlineRates,
  type HeadlineFile,
} from '../../../app/common/headline-rate.js';
import { smallFileBytes } from '../../../app/core/analysis/findings.js';
import { seededRandom } from '../../../app/core/bench/seeded-random.js';

const MB = 1e6;

/** A file that moved `bytes` at `rate` after a fixed cost of `latency` seconds. */
const file = (
  phase: 'write' | 'read',
  bytes: number,
  rate: number,
  latency = 0,
  extra: Partial<HeadlineFile> = {},
): HeadlineFile => ({ phase, bytes, seconds: latency + bytes / rate, ...extra });

describe('headline rate', () => {
  it('uses the same 2 MB line as the small-files finding', () => {
    assert.equal(driveRateMinBytes, smallFileBytes);
  });

  it('is all bytes over all seconds of the files of 2 MB or more, whatever the small ones did', () => {
    const random = seededRandom(Date.now() % 1e9);
    for (let trial = 0; trial < 20; trial += 1) {
      const rate = (100 + random() * 5000) * MB;
      const latency = random() * 0.002;
      const large = Array.from({ length: 3 + Math.floor(random() * 30) }, () =>
        file('write', driveRateMinBytes + random() * 2e9, rate, latency),
      );
      // Small files at any rate, far slower or (from a cache) far faster: they must not move it.
      const small = Array.from({ length: Math.floor(random() * 200) }, () =>
        file('write', 4096 + random() * (driveRateMinBytes - 4097), rate * (0.01 + random() * 50)),
      );
      const expected =
        large.reduce((sum, f) => sum + f.bytes, 0) / large.reduce((sum, f) => sum + f.seconds, 0);
      const got = headline({ files: [...small, ...large] }, 'write');
      assert.ok(Math.abs(got.rate! - expected) <= expected * 1e-12, `${got.rate} vs ${expected}`);
      assert.equal(got.basis, `${large.length} files of 2 MB or more`);
      // Time-weighted: with fixed costs it sits just under the drive's rate, never above it.
      assert.ok(got.rate! <= rate * (1 + 1e-12));
    }
  });

  it('is not the median of the files: a run of many small-ish files cannot pull it down', () => {
    // Mostly 2–4 MB files paying 3 ms each, and a few large ones: the median is well below.
    const files = [
      ...Array.from({ length: 20 }, (_, i) => file('write', (2 + i / 10) * MB, 560 * MB, 0.003)),
      ...Array.from({ length: 5 }, (_, i) => file('write', (500 + 300 * i) * MB, 560 * MB, 0.003)),
    ];
    const rate = headline({ files }, 'write').rate!;
    assert.ok(rate > 520 * MB && rate < 560 * MB, `${rate}`);
  });

  it('is null when no file of the direction reaches 2 MB, and says why', () => {
    const small = [file('write', 100_000, 3e9), file('write', 1_999_999, 3e9)];
    assert.deepEqual(headline({ files: small }, 'write'), {
      rate: null,
      basis: 'no write file of 2 MB or more',
    });
    assert.deepEqual(headline({ files: small }, 'read'), { rate: null, basis: 'no read files' });
    assert.deepEqual(headlineRates({ files: small }), { write: null, read: null });
  });

  it('keeps the directions apart', () => {
    const files = [file('write', 10 * MB, 300 * MB), file('read', 10 * MB, 900 * MB)];
    const rates = headlineRates({ files });
    assert.ok(Math.abs(rates.write! - 300 * MB) < 1);
    assert.ok(Math.abs(rates.read! - 900 * MB) < 1);
  });

  it('takes a paired run from folder A alone', () => {
    const files = [
      file('write', 400 * MB, 1000 * MB, 0, { target: 'a', stage: 'alone' }),
      file('write', 400 * MB, 2000 * MB, 0, { target: 'b', stage: 'alone' }),
      file('write', 400 * MB, 500 * MB, 0, { target: 'a', stage: 'together' }),
    ];
    const got = headline({ files }, 'write');
    assert.ok(Math.abs(got.rate! - 1000 * MB) < 1);
    assert.match(got.basis, /folder A alone/);
  });

  it('takes a queue-depth grid from its fastest sequential run, else its fastest random one', () => {
    const runs = [
      { name: 'SEQ1M Q8T1 read', op: 'read', bytesPerSecond: 3e9 },
      { name: 'SEQ1M Q1T1 read', op: 'read', bytesPerSecond: 2e9 },
      { name: 'RND4K Q32T1 read', op: 'randread', bytesPerSecond: 4e9 },
      { name: 'RND4K Q1T1 write', op: 'randwrite', bytesPerSecond: 5e7 },
    ];
    assert.deepEqual(headline({ files: [], runs }, 'read'), {
      rate: 3e9,
      basis: 'SEQ1M Q8T1 read',
    });
    assert.deepEqual(headline({ files: [], runs }, 'write'), {
      rate: 5e7,
      basis: 'RND4K Q1T1 write',
    });
  });
});
