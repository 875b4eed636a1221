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
      // A fixed cost of 1–30 ms; sizes from 2 MB up to 20 MB–2 GB, and at least one file whose
      // transfer takes 20 times the fixed cost, so the fastest files come within 10 % of the
      // drive's rate (a longer cost is the next test's); with ±2 % timing noise.
      const latency = 0.001 + random() * 0.029;
      const top = Math.max(20 * MB * 100 ** random(), 20 * latency * rate);
      const sizes = [
        top,
        ...Array.from(
          { length: 11 + Math.floor(random() * 26) },
          () => driveRateMinBytes * (top / driveRateMinBytes) ** random(),
        ),
      ];
      const large = sizes
        .map((bytes) => file('write', bytes, rate, latency))
        .map((f) => ({ ...f, seconds: f.seconds * (0.98 + 0.04 * random()) }));
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

  it('is never outside the rates its files of 2 MB or more had (within 10 %)', () => {
    const seed = baseSeed();
    const random = seededRandom(seed);
    const kinds = ['slow fixed cost', 'cliff', 'later files slower', 'noisy'] as const;
    for (let trial = 0; trial < 200; trial += 1) {
      const kind = kinds[trial % kinds.length]!;
      const rate = (50 + random() * 8000) * MB;
      const top = 4 * MB * 500 ** random();
      // Up to ten times the largest file's transfer: the slope is then far above every file.
      const latency = kind === 'slow fixed cost' ? random() * 10 * (top / rate) : random() * 0.01;
      const count = 3 + Math.floor(random() * 40);
      let written = 0;
      const cacheBytes = random() * count * top * 0.5;
      const files = Array.from({ length: count }, (_, k) => {
        const bytes = driveRateMinBytes * (top / driveRateMinBytes) ** random();
        written += bytes;
        const now =
          kind === 'cliff' && written > cacheBytes
            ? rate / (2 + random() * 8)
            : kind === 'later files slower'
              ? rate / (1 + (k * bytes) / top)
              : rate;
        const noise = kind === 'noisy' ? Math.exp(0.5 * (random() - 0.5)) : 1;
        return file('write', bytes, now, latency * noise);
      });
      const findings =
        kind === 'cliff' && random() < 0.5 ? [{ kind: 'cliff', phase: 'write' as const }] : [];
      const got = computeHeadline({ files, findings }, 'write');
      const rates = files.map((f) => f.bytes / f.seconds);
      const [slowest, fastest] = [Math.min(...rates), Math.max(...rates)];
      assert.ok(
        got.rate! >= 0.9 * slowest && got.rate! <= 1.1 * fastest,
        `seed ${seed}, trial ${trial} (${kind}): headline ${got.rate} outside ${slowest}–${fastest} (${got.basis})`,
      );
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
