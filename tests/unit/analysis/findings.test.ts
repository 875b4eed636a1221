import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dropCause } from '../../../app/core/analysis/drop-cause.js';
import { findings, type PhaseFile } from '../../../app/core/analysis/findings.js';
import {
  anySsdCeiling,
  interfaceCeilingById,
  interfaceCeilingForBus,
  interfaceCeilings,
} from '../../../app/core/analysis/interface-ceiling.js';
import { sizeAdjustedSpread } from '../../../app/core/analysis/size-adjusted-spread.js';
import { parseTransfersCsv } from '../../../app/core/analysis/transfers-csv.js';
import { isBimodal, twoModes } from '../../../app/core/analysis/two-modes.js';
import { seededRandom } from '../../../app/core/bench/seeded-random.js';
import { baseSeed } from '../../helpers/synthetic-samples.js';

describe('twoModes / isBimodal', () => {
  it("computes Ashman's D of the best two-group split", () => {
    // Groups {1, 3} and {9, 11}: means 2 and 10, population SD 1 each → D = √2·8/√2 = 8.
    const modes = twoModes([1, 3, 9, 11]);
    assert.deepEqual(modes?.low, { center: 2, count: 2 });
    assert.deepEqual(modes?.high, { center: 10, count: 2 });
    assert.ok(Math.abs(modes!.ashmansD - 8) < 1e-9);
  });
  it('calls clearly separated groups bimodal, one noisy group not', () => {
    const random = seededRandom(2);
    const two = Array.from(
      { length: 40 },
      (_, i) => (i < 25 ? 2.3e9 : 0.65e9) * (1 + 0.05 * random()),
    );
    const one = Array.from({ length: 40 }, () => 1e9 * (1 + 0.2 * (random() - 0.5)));
    assert.equal(isBimodal(twoModes(two)), true);
    assert.equal(isBimodal(twoModes(one)), false);
  });
  it('does not count two stragglers as a second mode', () => {
    const values = [...Array.from({ length: 38 }, (_, i) => 1e9 + i * 1e6), 1e8, 1.1e8];
    assert.equal(isBimodal(twoModes(values)), false);
    assert.equal(twoModes([1, 1, 1, 1]), null);
  });
});

describe('sizeAdjustedSpread', () => {
  it('is the p20–p80 range of observed ÷ predicted seconds', () => {
    const fit = { slope: 1, intercept: 0 };
    // Ratios 0.5, 1, 1, 1, 2 → p20 at index 0.8 = 0.9, p80 at index 3.2 = 1.2 → spread 0.3.
    const transfers = [0.5, 1, 1, 1, 2].map((ratio) => ({ bytes: 10, seconds: 10 * ratio }));
    assert.ok(Math.abs(sizeAdjustedSpread(transfers, fit)! - 0.3) < 1e-9);
  });
  it('predicts from same-size transfers when there is no rising line', () => {
    // One size; seconds 1,2,2,2,4 → median 2 → ratios 0.5,1,1,1,2 → spread 0.3 as above.
    const transfers = [1, 2, 2, 2, 4].map((seconds) => ({ bytes: 10, seconds }));
    assert.ok(Math.abs(sizeAdjustedSpread(transfers, null)! - 0.3) < 1e-9);
  });
  it('is null with too few transfers', () => {
    assert.equal(sizeAdjustedSpread([{ bytes: 1, seconds: 1 }], { slope: 1, intercept: 0 }), null);
    assert.equal(sizeAdjustedSpread([], null), null);
  });
});

describe('interface ceilings', () => {
  it('follow the reference table', () => {
    assert.equal(interfaceCeilingById('TB5')?.bytesPerSecond, 6e9);
    assert.equal(interfaceCeilingById('sata')?.bytesPerSecond, 0.55e9);
    assert.equal(interfaceCeilingById('floppy'), undefined);
  });
  it('come from the bus where the bus implies one', () => {
    assert.equal(interfaceCeilingForBus('sata')?.id, 'sata');
    assert.equal(interfaceCeilingForBus('usb')?.id, 'usb3-gen2x2');
    assert.equal(interfaceCeilingForBus('thunderbolt')?.id, 'tb5');
    assert.equal(interfaceCeilingForBus('nvme'), undefined);
    assert.equal(interfaceCeilingForBus(null), undefined);
  });
});

describe('dropCause', () => {
  const files = (temps: (number | null)[], rates: number[]) =>
    temps.map((temperatureC, i) => ({ temperatureC, rate: rates[i]! }));
  it('is thermal when the rate falls as the drive heats', () => {
    const verdict = dropCause({
      phase: 'write',
      atBytes: 24e9,
      atSeconds: 10,
      files: files(
        [40, 45, 50, 55, 60, 70, 72, 73],
        [2.3e9, 2.3e9, 2.2e9, 2.3e9, 2.2e9, 0.7e9, 0.6e9, 0.65e9],
      ),
    });
    assert.equal(verdict.cause, 'thermal');
  });
  it('is a cache when the temperature stayed flat', () => {
    const verdict = dropCause({
      phase: 'write',
      atBytes: 50e9,
      atSeconds: 9,
      files: files([40, 41, 40, 41, 41, 40], [5.5e9, 5.5e9, 5.5e9, 1.4e9, 1.4e9, 1.4e9]),
    });
    assert.equal(verdict.cause, 'cache');
  });
  it('is a cache when earlier runs dropped after the same bytes, thermal after the same time', () => {
    const base = { phase: 'write' as const, atBytes: 50e9, atSeconds: 9, files: [] };
    assert.equal(
      dropCause({ ...base, earlier: [{ atBytes: 52e9, atSeconds: 20 }] }).cause,
      'cache',
    );
    assert.equal(
      dropCause({ ...base, earlier: [{ atBytes: 30e9, atSeconds: 9.2 }] }).cause,
      'thermal',
    );
  });
  it('does not take a rate back after idle for a cache, and says why', () => {
    // A drive that cooled while idle comes back too (issue 13).
    const verdict = dropCause({
      phase: 'write',
      atBytes: 1,
      atSeconds: 1,
      files: [],
      recoverySeconds: 240,
    });
    assert.equal(verdict.cause, 'unknown');
    assert.match(verdict.reason, /240 s idle.*does not tell them apart/);
  });
  it('still takes the drop at the same bytes in earlier runs for a cache, recovery or not', () => {
    const verdict = dropCause({
      phase: 'write',
      atBytes: 50e9,
      atSeconds: 9,
      files: [],
      recoverySeconds: 240,
      earlier: [{ atBytes: 51e9, atSeconds: 30 }],
    });
    assert.equal(verdict.cause, 'cache');
  });
  it('never calls a rate that fell and came back again and again a cache', () => {
    const repeating = { count: 9, periodSeconds: 3.9 };
    const base = {
      phase: 'write' as const,
      atBytes: 5e9,
      atSeconds: 3,
      repeating,
      recoverySeconds: 30,
    };
    const plain = dropCause({ ...base, files: [], earlier: [{ atBytes: 5e9, atSeconds: 3 }] });
    assert.equal(plain.cause, 'thermal');
    assert.match(plain.reason, /9 times.*every 4 s.*stays slow until writing stops/);
    // A flat temperature rules out the drive's heat, but still not in favour of a cache.
    const flat = dropCause({
      ...base,
      files: files([40, 41, 40, 41, 41, 40], [2e9, 1e9, 2e9, 1e9, 2e9, 1e9]),
    });
    assert.equal(flat.cause, 'unknown');
    assert.match(flat.reason, /other than the drive's heat/);
    // Temperature stays the strongest evidence.
    const hot = dropCause({
      ...base,
      files: files([40, 50, 60, 70, 72, 73], [2.3e9, 2.2e9, 2e9, 1e9, 0.9e9, 0.8e9]),
    });
    assert.equal(hot.cause, 'thermal');
    assert.match(hot.reason, /heated by 33 °C/);
  });
  it('cannot tell from one run without temperatures, and says why', () => {
    const verdict = dropCause({
      phase: 'write',
      atBytes: 1,
      atSeconds: 1,
      files: files([null, null], [1, 1]),
    });
    assert.equal(verdict.cause, 'unknown');
    assert.match(verdict.reason, /no temperature/);
  });
  it('speaks of what the phase did: reading is never called writing', () => {
    const readings = files([40, 41, 40, 41, 41, 40], [3e9, 3e9, 3e9, 1e9, 1e9, 1e9]);
    const evidence = [
      { files: [] },
      { files: [], recoverySeconds: 30 },
      { files: readings },
      { files: [], repeating: { count: 4, periodSeconds: 2 } },
      { files: readings, repeating: { count: 4, periodSeconds: 2 } },
      { files: [], earlier: [{ atBytes: 5e9, atSeconds: 40 }] },
      { files: [], earlier: [{ atBytes: 9e9, atSeconds: 3 }] },
    ];
    for (const more of evidence) {
      const read = dropCause({ phase: 'read', atBytes: 5e9, atSeconds: 3, ...more }).reason;
      assert.doesNotMatch(read, /writ|write cache/i, read);
      const write = dropCause({ phase: 'write', atBytes: 5e9, atSeconds: 3, ...more }).reason;
      assert.doesNotMatch(write, /\bread(ing)?\b/i, write);
      // Whole sentences, read behind "Why?".
      for (const reason of [read, write]) assert.match(reason, /^[A-Z].*\.$/s, reason);
    }
  });
});

describe('findings', () => {
  const series = (
    rates: number[],
    phase: 'write' | 'read' = 'write',
    bytes = 100e6,
  ): PhaseFile[] => {
    let cumulative = 0;
    return rates.map((rate) => {
      cumulative += bytes;
      return { phase, bytes, seconds: bytes / rate, cumulativeBytes: cumulative, t: null };
    });
  };
  const kinds = (list: { kind: string }[]) => list.map((f) => f.kind).sort();

  it('reports a cliff, and bimodal rates with it, for a drive whose cache filled', () => {
    const rates = [...Array(20).fill(2.3e9), ...Array(20).fill(0.65e9)].map(
      (r, i) => r * (1 + 0.01 * (i % 3)),
    );
    const found = findings({ files: series(rates), cacheMode: 'direct' });
    assert.deepEqual(kinds(found), ['bimodal', 'cliff']);
    const cliff = found.find((f) => f.kind === 'cliff');
    assert.ok(cliff && cliff.kind === 'cliff');
    assert.equal(cliff.cause, 'unknown');
    assert.ok(Math.abs(cliff.atBytes - 2e9) < 0.01e9);
    // The two groups are the files before and after the drop, and the sentence says so.
    const groups = found.find((f) => f.kind === 'bimodal')!;
    assert.match(
      groups.message,
      /20 files near .* and 20 near .*, before and after the speed fell, not by file size:/,
    );
  });
  it('says file size does not explain two groups the drop does not explain either', () => {
    // Slow files among the fast ones, before the cache ran out: the drop is found, the groups
    // are not its before and after.
    const rates = [...Array(20).fill(2.3e9), ...Array(20).fill(0.65e9)].map((r, i) =>
      i === 3 || i === 9 || i === 15 ? 0.65e9 : r * (1 + 0.01 * (i % 3)),
    );
    const found = findings({ files: series(rates), cacheMode: 'direct' });
    assert.deepEqual(kinds(found), ['bimodal', 'cliff']);
    const groups = found.find((f) => f.kind === 'bimodal')!;
    assert.match(
      groups.message,
      /17 files near .* and 23 near .*, that file size does not explain:/,
    );
  });
  it('names thermal throttling when temperatures explain the drop', () => {
    const rates = [...Array(10).fill(2.3e9), ...Array(10).fill(0.65e9)];
    const files = series(rates).map((f, i) => ({ ...f, temperatureC: 40 + i * 2 }));
    const found = findings({ files, cacheMode: 'direct' });
    assert.ok(found.some((f) => f.kind === 'throttling'));
  });
  it('flags rates above the interface ceiling, small files and buffered I/O', () => {
    const files = [
      ...series([0.5e9, 0.52e9, 0.51e9, 0.5e9, 0.53e9]),
      ...series([3e9], 'read', 1e6),
    ];
    const found = findings({ files, cacheMode: 'buffered', ceiling: interfaceCeilingById('sata') });
    assert.deepEqual(kinds(found), ['buffered', 'exceeds-interface', 'small-files']);
    const over = found.find((f) => f.kind === 'exceeds-interface');
    assert.ok(
      over && over.kind === 'exceeds-interface' && over.phase === 'read' && over.count === 1,
    );
  });
  it('with no ceiling known, calls a rate beyond any SSD what it is: memory or a cache', () => {
    // Reads of 8–21 GB/s on a disk whose bus was not reported (issue 23), drawn at random.
    const seed = baseSeed();
    const random = seededRandom(seed);
    const fast = Array.from({ length: 12 }, () => 8e9 + random() * 13e9);
    const level = 1e9 + random() * 6e9;
    const drive = Array.from({ length: 12 }, (_, i) => level * (1 + 0.01 * (i % 5)));
    const found = findings({ files: series([...drive, ...fast], 'read'), cacheMode: 'direct' });
    const over = found.find((f) => f.kind === 'exceeds-interface');
    assert.ok(over && over.kind === 'exceeds-interface', `seed ${seed}: ${JSON.stringify(found)}`);
    assert.equal(over.interface, anySsdCeiling.id);
    assert.equal(over.count, 12);
    assert.equal(over.ceilingRate, Math.max(...interfaceCeilings.map((c) => c.bytesPerSecond)));
    assert.match(
      over.message,
      /^12 files read went faster than any SSD Plumb knows of \(the fastest reaches 7\.70 GB\/s; these up to .*\): they were served from memory or a cache, not read from the drive\.$/,
    );
    // Up to the fastest SSD known, nothing is claimed.
    assert.deepEqual(findings({ files: series(drive, 'read'), cacheMode: 'direct' }), []);
  });
  it('calls a phase unstable when times scatter for no reason of size', () => {
    const random = seededRandom(4);
    const rates = Array.from({ length: 30 }, () => 1e9 * Math.exp(1.5 * (random() - 0.5)));
    assert.deepEqual(kinds(findings({ files: series(rates), cacheMode: 'direct' })), ['unstable']);
  });
  it('finds nothing on a steady drive', () => {
    const rates = Array.from({ length: 30 }, (_, i) => 1e9 * (1 + 0.01 * (i % 5)));
    assert.deepEqual(findings({ files: series(rates), cacheMode: 'direct' }), []);
  });
});

describe('parseTransfersCsv', () => {
  it('reads bytes,seconds with a header and sums the cumulative bytes', () => {
    assert.deepEqual(parseTransfersCsv('bytes,seconds\n100,1\n\n200,2\n'), [
      { bytes: 100, seconds: 1, cumulativeBytes: 100 },
      { bytes: 200, seconds: 2, cumulativeBytes: 300 },
    ]);
  });
  it('keeps a given cumulativeBytes column', () => {
    assert.deepEqual(parseTransfersCsv('100,1,500\r\n'), [
      { bytes: 100, seconds: 1, cumulativeBytes: 500 },
    ]);
  });
  it('names the first bad line', () => {
    assert.throws(() => parseTransfersCsv('bytes,seconds\n100,1\nabc,2\n'), /Line 3/);
    assert.throws(() => parseTransfersCsv('100,-1'), /Line 1/);
    assert.throws(() => parseTransfersCsv('bytes,seconds\n'), /no transfers/);
  });
});
