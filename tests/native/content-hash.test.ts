import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  lstatSync,
  linkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PlumbNative } from '../../native/index.js';

const native = createRequire(import.meta.url)(
  '../../native/build/Release/plumb.node',
) as PlumbNative;

// ── LaneHash128 written again from its definition in native/src/content_hash.h ──────────────
const mask = (1n << 64n) - 1n;
const kWord = 0xd3825d45c8c46b53n;
const kLane = 0xa61de6f7df077aafn;
const kLength = 0xb526222e0a97a263n;
const kMixA = 0xab4bc577884e65c7n;
const kMixB = 0xca8be992eefc87b1n;
const seeds = [0xa49a37290c995057n, 0xa75e7a62e375108bn, 0xb61e4f4a2c62ace7n, 0x3c6ef372fe94f82bn];

const rotl = (x: bigint, bits: bigint): bigint => ((x << bits) | (x >> (64n - bits))) & mask;
const mul = (a: bigint, b: bigint): bigint => (a * b) & mask;
const avalanche = (input: bigint): bigint => {
  let x = input;
  x ^= x >> 32n;
  x = mul(x, kMixA);
  x ^= x >> 29n;
  x = mul(x, kMixB);
  return x ^ (x >> 32n);
};

function laneHash128(data: Uint8Array): Buffer {
  const lanes = [...seeds];
  const stripes = Math.ceil(data.length / 32);
  const padded = Buffer.alloc(stripes * 32);
  padded.set(data);
  for (let s = 0; s < stripes; s += 1) {
    for (let i = 0; i < 4; i += 1) {
      const word = padded.readBigUInt64LE(s * 32 + 8 * i);
      lanes[i] = mul(rotl((lanes[i]! + mul(word, kWord)) & mask, 31n), kLane);
    }
  }
  const length = BigInt(data.length);
  const v = lanes.map((lane, i) => avalanche(lane ^ mul(length + BigInt(i), kLength)));
  const low = avalanche(v[0]! ^ rotl(v[1]!, 17n) ^ rotl(v[2]!, 34n) ^ rotl(v[3]!, 51n));
  const high = avalanche(v[3]! ^ rotl(v[2]!, 13n) ^ rotl(v[0]!, 29n) ^ rotl(v[1]!, 47n) ^ low);
  const digest = Buffer.alloc(16);
  digest.writeBigUInt64LE(low, 0);
  digest.writeBigUInt64LE(high, 8);
  return digest;
}

/** Deterministic bytes (not random) so the known answers below never change. */
function counting(length: number, step = 7): Buffer {
  const data = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) data[i] = (i * step + (i >> 8)) & 0xff;
  return data;
}

const bitsSet = (a: Buffer, b: Buffer): number => {
  let count = 0;
  for (let i = 0; i < a.length; i += 1) {
    for (let x = a[i]! ^ b[i]!; x; x &= x - 1) count += 1;
  }
  return count;
};

describe('LaneHash128', () => {
  test('known answers match an independent implementation of the definition', () => {
    // Lengths around every stripe boundary and the 1 MiB read buffer of hashFiles.
    const lengths = [0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 100, 1000, 4096, 4097, 65_537];
    for (const length of lengths) {
      const data = counting(length);
      assert.equal(
        native.hashBytes(data).toString('hex'),
        laneHash128(data).toString('hex'),
        `length ${length}`,
      );
    }
    // Fixed answers, so a change to the definition on both sides is noticed too.
    assert.equal(
      native.hashBytes(Buffer.alloc(0)).toString('hex'),
      laneHash128(Buffer.alloc(0)).toString('hex'),
    );
    assert.equal(
      native.hashBytes(Buffer.from('')).toString('hex'),
      'b73b800ec94d49b12875accdae4b9a8b',
    );
    assert.equal(
      native.hashBytes(Buffer.from('a')).toString('hex'),
      'f485b4c9f7fa5ccc5faba2c1c5498065',
    );
  });

  test('one flipped input bit changes about half the output bits', () => {
    const base = counting(256, 13);
    const reference = native.hashBytes(base);
    let total = 0;
    let trials = 0;
    for (let bit = 0; bit < base.length * 8; bit += 3) {
      const flipped = Buffer.from(base);
      flipped[bit >> 3]! ^= 1 << (bit & 7);
      const changed = bitsSet(reference, native.hashBytes(flipped));
      assert.ok(
        changed >= 30 && changed <= 98,
        `bit ${bit}: ${changed} of 128 output bits changed`,
      );
      total += changed;
      trials += 1;
    }
    const mean = total / trials;
    assert.ok(Math.abs(mean - 64) < 3, `mean ${mean} changed bits`);
  });

  test('no collisions on structured inputs (zeros of every length, counters, single bytes)', () => {
    const seen = new Map<string, string>();
    const add = (label: string, data: Uint8Array): void => {
      const key = native.hashBytes(data).toString('hex');
      assert.equal(seen.get(key), undefined, `${label} collides with ${seen.get(key)}`);
      seen.set(key, label);
    };
    // Zero padding of the last stripe must not make different lengths equal.
    for (let length = 0; length <= 300; length += 1) add(`zeros ${length}`, Buffer.alloc(length));
    for (let value = 1; value < 256; value += 1) add(`byte ${value}`, Buffer.from([value]));
    for (let n = 0; n < 5000; n += 1) {
      const data = Buffer.alloc(64);
      data.writeUInt32LE(n + 1, 0);
      add(`counter ${n + 1} at 0`, data);
      const late = Buffer.alloc(64);
      late.writeUInt32LE(n + 1, 60);
      add(`counter ${n + 1} at 60`, late);
    }
    // The same word in different lanes (positions 0, 8, 16, 24) must differ.
    for (let lane = 0; lane < 4; lane += 1) {
      const data = Buffer.alloc(32);
      data.writeUInt32LE(0xdeadbeef, lane * 8);
      add(`word in lane ${lane}`, data);
    }
  });
});

describe('hashFiles', () => {
  let dir: string;
  const files: string[] = [];
  const contents: Buffer[] = [];

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'plumb-hash-'));
    const sizes = [0, 1, 31, 32, 4096, 8193, 1024 * 1024, 1024 * 1024 + 17, 3 * 1024 * 1024 + 5];
    sizes.forEach((size, index) => {
      const data = randomBytes(size);
      const file = path.join(dir, `f${index}`);
      writeFileSync(file, data);
      files.push(file);
      contents.push(data);
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('whole files: each digest is LaneHash128 of the content, in order', async () => {
    const progress: { files: number; bytes: number }[] = [];
    const result = await native.hashFiles(files, {
      threads: 3,
      onProgress: (p) => progress.push(p),
    });
    assert.equal(result.failures.length, 0);
    assert.equal(result.digests.length, 16 * files.length);
    contents.forEach((data, index) => {
      assert.equal(
        result.digests.subarray(index * 16, index * 16 + 16).toString('hex'),
        native.hashBytes(data).toString('hex'),
        path.basename(files[index]!),
      );
    });
    const total = contents.reduce((sum, c) => sum + c.length, 0);
    assert.equal(result.bytesRead, total);
    assert.deepEqual(progress.at(-1), { files: files.length, bytes: total });
  });

  test('edges: the first and last edgeBytes, overlapping ends read once', async () => {
    const edge = 4096;
    const result = await native.hashFiles(files, { edgeBytes: edge });
    contents.forEach((data, index) => {
      const headEnd = Math.min(data.length, edge);
      const tailStart = Math.max(headEnd, data.length - edge);
      const expected = Buffer.concat([data.subarray(0, headEnd), data.subarray(tailStart)]);
      assert.equal(
        result.digests.subarray(index * 16, index * 16 + 16).toString('hex'),
        native.hashBytes(expected).toString('hex'),
      );
    });
  });

  test('same head and tail with a different middle: same edge key, different full digest', async () => {
    const size = 256 * 1024;
    const a = randomBytes(size);
    const b = Buffer.from(a);
    b[size / 2]! ^= 0xff;
    const pa = path.join(dir, 'trap-a');
    const pb = path.join(dir, 'trap-b');
    writeFileSync(pa, a);
    writeFileSync(pb, b);
    const edges = await native.hashFiles([pa, pb], { edgeBytes: 4096 });
    assert.ok(edges.digests.subarray(0, 16).equals(edges.digests.subarray(16, 32)));
    const full = await native.hashFiles([pa, pb]);
    assert.ok(!full.digests.subarray(0, 16).equals(full.digests.subarray(16, 32)));
  });

  test('unreadable files are reported by index; the others are still hashed', async () => {
    const link = path.join(dir, 'link');
    symlinkSync(files[1]!, link);
    const folder = path.join(dir, 'folder');
    mkdirSync(folder);
    const list = [files[1]!, path.join(dir, 'missing'), link, folder, files[2]!];
    const result = await native.hashFiles(list);
    assert.deepEqual(
      result.failures.map((f) => [f.index, f.error.code]),
      [
        [1, 'ENOENT'],
        [2, 'ELOOP'], // symbolic links are never followed
        [3, 'EISDIR'],
      ],
    );
    assert.equal(result.failures[0]!.error.path, list[1]);
    assert.equal(
      result.digests.subarray(64, 80).toString('hex'),
      native.hashBytes(contents[2]!).toString('hex'),
    );
    if (process.getuid?.() !== 0) {
      chmodSync(files[3]!, 0);
      const denied = await native.hashFiles([files[3]!]);
      assert.equal(denied.failures[0]!.error.code, 'EACCES');
      chmodSync(files[3]!, 0o644);
    }
  });

  test('cancel rejects with ECANCELED, before or during the work', async () => {
    const before = native.createCancel();
    before.cancel();
    await assert.rejects(native.hashFiles(files, { cancel: before }), { code: 'ECANCELED' });
    const during = native.createCancel();
    // 6 GB to hash on one thread: far more than the first progress report's 100 ms (the cancel
    // must land while the work runs; 200 copies, 600 MB, sometimes finished before the report).
    const many = Array.from({ length: 2000 }, () => files.at(-1)!);
    await assert.rejects(
      native.hashFiles(many, { threads: 1, cancel: during, onProgress: () => during.cancel() }),
      { code: 'ECANCELED' },
    );
  });

  test('an exception in onProgress stops the work and rejects with it', async () => {
    const many = Array.from({ length: 200 }, () => files.at(-1)!);
    await assert.rejects(
      native.hashFiles(many, {
        threads: 1,
        onProgress: () => {
          throw new Error('stop here');
        },
      }),
      /stop here/,
    );
  });

  test('bad arguments are TypeErrors, never a crash', async () => {
    const bad = native as unknown as Record<string, (...args: unknown[]) => unknown>;
    assert.throws(() => bad.hashFiles!(), TypeError);
    assert.throws(() => bad.hashFiles!('a'), TypeError);
    assert.throws(() => bad.hashFiles!([1]), TypeError);
    assert.throws(() => bad.hashFiles!(['']), TypeError);
    assert.throws(() => bad.hashFiles!(['a\0b']), TypeError);
    assert.throws(() => bad.hashFiles!([files[0]], 5), TypeError);
    assert.throws(() => bad.hashFiles!([files[0]], { threads: 0 }), TypeError);
    assert.throws(() => bad.hashFiles!([files[0]], { threads: 1.5 }), TypeError);
    assert.throws(() => bad.hashFiles!([files[0]], { edgeBytes: -1 }), TypeError);
    assert.throws(() => bad.hashFiles!([files[0]], { cancel: {} }), TypeError);
    assert.throws(() => bad.hashFiles!([files[0]], { onProgress: 'x' }), TypeError);
    assert.throws(() => bad.hashBytes!('text'), TypeError);
    assert.throws(() => bad.hashBytes!(new Uint16Array(4)), TypeError);
    const empty = await native.hashFiles([]);
    assert.equal(empty.digests.length, 0);
  });
});

describe('listFolders', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'plumb-list-'));
    mkdirSync(path.join(dir, 'sub'));
    writeFileSync(path.join(dir, 'a.bin'), randomBytes(5000));
    linkSync(path.join(dir, 'a.bin'), path.join(dir, 'sub', 'a-link.bin'));
    symlinkSync('a.bin', path.join(dir, 'link'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('entries with the same metadata as lstat, links not followed', async () => {
    const [top, sub, missing] = await native.listFolders([
      dir,
      path.join(dir, 'sub'),
      path.join(dir, 'nope'),
    ]);
    assert.equal(top!.error, null);
    const byName = new Map(top!.names.map((name, i) => [name, i]));
    assert.deepEqual([...byName.keys()].sort(), ['a.bin', 'link', 'sub']);
    const i = byName.get('a.bin')!;
    const stats = lstatSync(path.join(dir, 'a.bin'));
    assert.equal(top!.kinds[i], 0);
    assert.deepEqual(
      [...top!.numbers.subarray(i * 7, i * 7 + 7)],
      [
        stats.dev,
        stats.ino,
        stats.nlink,
        stats.size,
        stats.blocks * 512,
        stats.mtimeMs,
        stats.ctimeMs,
      ],
    );
    assert.equal(top!.kinds[byName.get('link')!], 2);
    assert.equal(top!.kinds[byName.get('sub')!], 1);
    assert.deepEqual(sub!.names, ['a-link.bin']);
    assert.equal(sub!.numbers[2], 2);
    assert.equal(missing!.error?.code, 'ENOENT');
    assert.equal(missing!.names.length, 0);
  });

  test('a symbolic link to a folder is not listed through', async () => {
    symlinkSync('sub', path.join(dir, 'sublink'));
    const [listing] = await native.listFolders([path.join(dir, 'sublink')]);
    assert.match(listing!.error?.code ?? '', /^(ELOOP|ENOTDIR)$/);
  });

  test('bad arguments are TypeErrors', () => {
    const bad = native as unknown as Record<string, (...args: unknown[]) => unknown>;
    assert.throws(() => bad.listFolders!(), TypeError);
    assert.throws(() => bad.listFolders!([3]), TypeError);
    assert.throws(() => bad.listFolders!([dir], { threads: 99 }), TypeError);
  });
});
