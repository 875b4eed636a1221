/** Sizes a run decides before it starts: the capacity fill and the recovery probe on small disks. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  blocksWithin,
  capacityFillBytes,
  recoveryProbeSize,
  sizeQuantum,
} from '../../../app/common/run-sizes.js';
import { baseSeed, seededRandom } from '../../helpers/synthetic-samples.js';

const MB = 1e6;
const GB = 1e9;
const seed = baseSeed();

test('a capacity check fills the whole allowance, a quick one its share, a cap no more than it', () => {
  const random = seededRandom(seed);
  for (let i = 0; i < 200; i += 1) {
    const allowance = random() * 4e12;
    const full = capacityFillBytes(allowance, null);
    assert.ok(full <= allowance && allowance - full < sizeQuantum, `${full} of ${allowance}`);
    assert.equal(full % sizeQuantum, 0);
    const scale = 0.001 + random() * 0.999;
    const quick = capacityFillBytes(allowance, null, scale);
    assert.ok(Math.abs(quick - allowance * scale) < sizeQuantum && quick <= allowance);
    const cap = random() * 8e12;
    assert.equal(capacityFillBytes(allowance, cap), blocksWithin(Math.min(cap, allowance)));
  }
  assert.equal(capacityFillBytes(-5, null), 0, 'nothing allowed: nothing filled');
});

test('a recovery probe keeps its size where it fits, shrinks to what fits, or is skipped, saying why', () => {
  assert.deepEqual(recoveryProbeSize(2 * GB, 50 * GB, 200 * MB), {
    probeBytes: 2 * GB,
    note: null,
  });
  // The 3 GB disk of issue 23: about 1.9 GB may be written with the default 1 GB reserve.
  const sized = recoveryProbeSize(2 * GB, 1.9 * GB, 200 * MB);
  assert.ok(
    sized.probeBytes !== null && sized.probeBytes < 1.9 * GB && sized.probeBytes > 1.8 * GB,
  );
  assert.equal(sized.probeBytes % sizeQuantum, 0);
  assert.match(sized.note ?? '', /^Recovery probes of 1\.8\d GB instead of 2\.00 GB: .* 1\.90 GB/);
  const skipped = recoveryProbeSize(2 * GB, 150 * MB, 200 * MB);
  assert.deepEqual(skipped, {
    probeBytes: null,
    note: 'The recovery is not timed: a probe needs at least 200 MB, and only 150 MB may be written here.',
  });
  // Drawn: a sized probe always leaves room for the file system beside it, and never grows.
  const random = seededRandom(seed + 1);
  for (let i = 0; i < 200; i += 1) {
    const planned = 1e6 + random() * 4e9;
    const allowance = random() * 6e9;
    const probe = recoveryProbeSize(planned, allowance, 1e6);
    if (probe.probeBytes === null) continue;
    assert.ok(probe.probeBytes <= planned && probe.probeBytes < allowance);
  }
});
