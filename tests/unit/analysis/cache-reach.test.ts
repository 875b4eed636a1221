import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cacheReach, minCacheShare } from '../../../app/core/analysis/cache-reach.js';
import { Finding } from '../../../app/contract/bench-result.js';

const GB = 1e9;
const draw = (low: number, high: number) => low + Math.random() * (high - low);

/** `count` files of the phase adding up to `total` bytes. */
const files = (phase: 'write' | 'read', total: number, count = 7) =>
  Array.from({ length: count }, () => ({ phase, bytes: total / count }));

describe('cache reach', () => {
  it('says a run that wrote less than 1.3 % of the volume may have stayed in the write cache', () => {
    const volumeBytes = draw(16, 8000) * GB;
    const cache = volumeBytes * minCacheShare;
    const written = cache * draw(0.001, 0.99);
    const found = cacheReach({
      files: [...files('write', written), ...files('read', written)],
      cacheMode: 'direct',
      volumeBytes,
      ramBytes: 16 * GB,
    });
    assert.equal(found.length, 1);
    assert.equal(found[0]!.phase, 'write');
    assert.equal(found[0]!.cache, 'drive');
    assert.ok(Math.abs(found[0]!.bytes - written) < 1);
    assert.ok(Math.abs(found[0]!.cacheBytes - cache) < 1);
    assert.match(found[0]!.message, /may all have gone into the drive's write cache/);
    // It is a finding the results document accepts.
    assert.ok(Finding.safeParse(found[0]).success);
  });

  it('says nothing of a run that wrote past it', () => {
    const volumeBytes = draw(16, 8000) * GB;
    const written = volumeBytes * minCacheShare * draw(1.01, 5);
    const found = cacheReach({
      files: [...files('write', written), ...files('read', written)],
      cacheMode: 'direct',
      volumeBytes,
      ramBytes: 64 * GB,
    });
    assert.deepEqual(found, []);
  });

  it('judges a grid by its test file, whatever it moved in all', () => {
    const volumeBytes = 1000 * GB;
    const grid = (fileBytes: number) =>
      cacheReach({
        files: [],
        cacheMode: 'direct',
        volumeBytes,
        ramBytes: 8 * GB,
        gridFileBytes: fileBytes,
      });
    const small = grid(10.7e6);
    assert.equal(small.length, 1);
    assert.equal(small[0]!.phase, null);
    assert.match(small[0]!.message, /10\.7 MB test file, less than 13\.0 GB/);
    assert.deepEqual(grid(20 * GB), []);
  });

  it('says buffered reads smaller than the memory may have come from it', () => {
    const ramBytes = draw(4, 64) * GB;
    const read = ramBytes * draw(0.01, 0.99);
    const found = cacheReach({
      files: files('read', read),
      cacheMode: 'buffered',
      volumeBytes: 0,
      ramBytes,
    });
    assert.deepEqual(
      found.map((f) => [f.phase, f.cache]),
      [['read', 'memory']],
    );
    assert.deepEqual(
      cacheReach({ files: files('read', read), cacheMode: 'direct', volumeBytes: 0, ramBytes }),
      [],
    );
  });

  it('counts only folder A of a paired run', () => {
    const found = cacheReach({
      files: [
        { phase: 'write', bytes: 1 * GB, target: 'a' },
        { phase: 'write', bytes: 50 * GB, target: 'b' },
      ],
      cacheMode: 'direct',
      volumeBytes: 1000 * GB,
      ramBytes: 8 * GB,
    });
    assert.equal(found[0]!.bytes, 1 * GB);
  });
});
