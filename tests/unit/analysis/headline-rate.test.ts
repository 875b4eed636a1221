import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { driveRateMinBytes, headline, headlineRates } from '../../../app/common/headline-rate.js';
import { smallFileBytes } from '../../../app/core/analysis/findings.js';
import { computeHeadline, withHeadline } from '../../../app/core/analysis/headline-rate.js';
import { seededRandom } from '../../../app/core/bench/seeded-random.js';
import { baseSeed } from '../../helpers/synthetic-samples.js';

const MB = 1e6;

type File = {
  phase: 'write' | 'read';
  bytes: number;
  seconds: number;
  target?: 'a' | 'b';
  stage?: 'alone' | 'together';
};

/** A file that moved `bytes` at `rate` after a fixed cost of `latency` seconds. */
const file = (
  phase: 'write' | 'read',
  bytes: number,
  rate: number,
  latency = 0,
  extra: Partial<File> = {},
): File => ({ phase, bytes, seconds: latency + bytes / rate, ...extra });

describe('headline rate', () => {
  it('uses the same 2 MB line as the small-files finding', () => {
    assert.equal(driveRateMinBytes, smallFileBytes);
  });

  it("is the drive's steady rate, whatever each file's fixed cost and whatever the small files did", () => {
    const seed = baseSeed();
    const random = seededRandom(seed);
    for (let trial = 0; trial < 20; trial += 1) {
      const rate = (100 + random() * 5000) * MB;
      // Sizes from 2 MB up to 20 MB–2 GB, with ±2 % timing noise.
      const top = 20 * MB * 100 ** random();
      // A fixed cost up to 30 ms, but no more than the largest file's transfer: beyond that the
      // timing noise on the cost hides the slope (an NVMe rate with a hard disk's latency), and no
      // rate can be told from the files (1 in 300 draws did that: 12–19 % off).
      const latency = random() * Math.min(0.03, top / rate);
      const large = Array.from({ length: 12 + Math.floor(random() * 26) }, () =>
        file('write', driveRateMinBytes * (top / driveRateMinBytes) ** random(), rate, latency),
      ).map((f) => ({ ...f, seconds: f.seconds * (0.98 + 0.04 * random()) }));
      // Small files at any rate, far slower or (from a cache) far faster: they must not move it.
      const small = Array.from({ length: Math.floor(random() * 200) }, () =>
        file('write', 4096 + random() * (driveRateMinBytes - 4097), rate * (0.01 + random() * 50)),
      );
      const got = computeHeadline({ files: [...small, ...large] }, 'write');
      assert.ok(
        Math.abs(got.rate! - rate) <= 0.1 * rate,
        `seed ${seed}: ${got.rate} vs ${rate} (latency ${latency} s, sizes to ${top})`,
      );
      assert.equal(got.basis, `steady rate of ${large.length} files of 2 MB or more`);
    }
  });

  it('is the bytes over the seconds when the sizes are too alike for a slope', () => {
    const files = [400, 400, 410, 420].map((m) => file('write', m * MB, 700 * MB, 0.01));
    const expected =
      files.reduce((s, f) => s + f.bytes, 0) / files.reduce((s, f) => s + f.seconds, 0);
    assert.deepEqual(computeHeadline({ files }, 'write'), {
      rate: expected,
      basis: '4 files of 2 MB or more',
    });
  });

  it('is null when no file of the direction reaches 2 MB, and says why', () => {
    const small = [file('write', 100_000, 3e9), file('write', 1_999_999, 3e9)];
    assert.deepEqual(computeHeadline({ files: small }, 'write'), {
      rate: null,
      basis: 'no write file of 2 MB or more',
    });
    assert.deepEqual(computeHeadline({ files: small }, 'read'), {
      rate: null,
      basis: 'no read files',
    });
  });

  it('keeps the directions apart, and is what every front end reads once stored', () => {
    const files = [10, 40, 90].flatMap((m) => [
      file('write', m * MB, 300 * MB, 0.002),
      file('read', m * MB, 900 * MB, 0.001),
    ]);
    const document = withHeadline({ files });
    const rates = headlineRates(document);
    assert.ok(Math.abs(rates.write! - 300 * MB) < 1e-6 * MB);
    assert.ok(Math.abs(rates.read! - 900 * MB) < 1e-6 * MB);
    assert.deepEqual(headline(document, 'write'), computeHeadline(document, 'write'));
    // A stored headline is kept as it is; a document without one reads as not computed.
    assert.equal(withHeadline(document), document);
    assert.deepEqual(headline({}, 'read'), { rate: null, basis: 'not computed' });
  });

  it('takes a paired run from folder A alone', () => {
    const files = [
      file('write', 400 * MB, 1000 * MB, 0, { target: 'a', stage: 'alone' }),
      file('write', 400 * MB, 2000 * MB, 0, { target: 'b', stage: 'alone' }),
      file('write', 400 * MB, 500 * MB, 0, { target: 'a', stage: 'together' }),
    ];
    const got = computeHeadline({ files }, 'write');
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
    assert.deepEqual(computeHeadline({ files: [], runs }, 'read'), {
      rate: 3e9,
      basis: 'SEQ1M Q8T1 read',
    });
    assert.deepEqual(computeHeadline({ files: [], runs }, 'write'), {
      rate: 5e7,
      basis: 'RND4K Q1T1 write',
    });
  });
});
