import assert from 'node:assert/strict';
import { test } from 'node:test';
import { printable, printableLine } from '../../../app/cli/printable.js';
import { keepsBytes, pathFromBytes, pathToBytes } from '../../../app/common/path-text.js';
import { seededRandom } from '../../../app/core/bench/seeded-random.js';
import { baseSeed } from '../../helpers/synthetic-samples.js';

const seed = baseSeed();

/** Bytes like names: runs of valid UTF-8 of every length, broken and stray bytes between. */
function randomName(random: () => number): Uint8Array {
  const pieces: number[] = [];
  const count = Math.floor(random() * 12);
  for (let i = 0; i < count; i += 1) {
    const kind = Math.floor(random() * 4);
    if (kind === 0) pieces.push(...Buffer.from(String.fromCodePoint(Math.floor(random() * 0xd800))));
    else if (kind === 1) pieces.push(...Buffer.from(String.fromCodePoint(0x10000 + Math.floor(random() * 0xfffff))));
    else if (kind === 2) pieces.push(Math.floor(random() * 256));
    else pieces.push(...Buffer.from(String.fromCodePoint(0x800 + Math.floor(random() * 0xd000))).subarray(0, 1 + Math.floor(random() * 2)));
  }
  return Uint8Array.from(pieces);
} // prettier-ignore

test('any bytes come back as they were, and a kept byte is the only lone surrogate', () => {
  const random = seededRandom(seed);
  for (let i = 0; i < 20_000; i += 1) {
    const bytes = randomName(random);
    const text = pathFromBytes(bytes);
    assert.deepEqual(pathToBytes(text), bytes, `seed ${seed}, name ${i}`);
    for (const char of text) {
      const code = char.codePointAt(0)!;
      if (code >= 0xd800 && code <= 0xdfff) assert.ok(code >= 0xdc80, `seed ${seed}: ${code}`);
    }
  }
});

test('UTF-8 reads as UTF-8 does; what it refuses is kept byte by byte', () => {
  const random = seededRandom(seed + 1);
  const strict = new TextDecoder('utf-8', { fatal: true });
  let valid = 0;
  for (let i = 0; i < 20_000; i += 1) {
    const bytes = randomName(random);
    let expected: string | null = null;
    try {
      expected = strict.decode(bytes);
    } catch {
      // not UTF-8: kept bytes below
    }
    const text = pathFromBytes(bytes);
    if (expected !== null) {
      valid += 1;
      assert.equal(text, expected, `seed ${seed + 1}, name ${i}`);
      assert.equal(keepsBytes(text), false);
    } else {
      assert.equal(keepsBytes(text), true, `seed ${seed + 1}, name ${i}`);
    }
  }
  assert.ok(valid > 2000 && valid < 18_000, `${valid} of the names were UTF-8: both kinds drawn`);
  // Overlong forms, encoded surrogates and code points past U+10FFFF are not UTF-8.
  for (const bytes of [
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xf4, 0x90, 0x80, 0x80],
    [0xe2, 0x82],
  ]) {
    const text = pathFromBytes(Uint8Array.from(bytes));
    assert.equal(text, String.fromCharCode(...bytes.map((b) => 0xdc00 + b)));
  }
});

test('ordinary names are the plain strings, emoji included', () => {
  for (const name of ['/home/me/photo.raw', 'été 100%.txt', 'disk \u{1f4be}.img', '']) {
    assert.equal(keepsBytes(name), false);
    assert.equal(pathFromBytes(pathToBytes(name)), name);
    assert.deepEqual(Buffer.from(pathToBytes(name)), Buffer.from(name));
  }
});

test('printed, a name shows its kept bytes as \\xNN and acts on no terminal', () => {
  const name = pathFromBytes(
    Buffer.from('caf\xe9 \x1b[31mred\x1b[0m\nnext\tcol \xff.raw', 'latin1'),
  );
  assert.equal(printableLine(name), 'caf\\xe9 \\x1b[31mred\\x1b[0m\\x0anext\\x09col \\xff.raw');
  // A message keeps its lines and tabs; the rest is escaped the same way.
  assert.equal(
    printable(`a\n\tb \x1b]0;x\x07 ${name.slice(0, 4)}`),
    'a\n\tb \\x1b]0;x\\x07 caf\\xe9',
  );
  // A lone surrogate that keeps no byte (a Windows name's own) is shown by its code.
  assert.equal(printableLine('x\ud800y'), 'x\\u{d800}y');
  assert.equal(printableLine('ok \u{1f4be} été'), 'ok \u{1f4be} été');
});
