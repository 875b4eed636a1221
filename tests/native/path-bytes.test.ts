import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathFromBytes, pathToBytes } from '../../app/common/path-text.js';
import { seededRandom } from '../../app/core/bench/seeded-random.js';
import { loadNative } from '../../app/core/native/load.js';
import { baseSeed } from '../helpers/synthetic-samples.js';

// The addon's paths (native/src/engine/utf.h) and the app's (app/common/path-text.ts) are one
// representation: for files named with random bytes, the names the addon lists are the strings
// the app makes of the bytes, and the addon finds each file by that string again.
const skip =
  process.platform !== 'linux' ? 'only Linux file systems take any bytes as a name' : undefined;
const dir = mkdtempSync(path.join(tmpdir(), 'plumb-path-bytes-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const native = loadNative();

test('random byte names: listed, found and reported by the addon as the app names them', { skip }, async () => {
  const seed = baseSeed();
  const random = seededRandom(seed);
  const made = new Map<string, Buffer>();
  // 20 contents, so the scan groups most files with others.
  const contents = Array.from({ length: 20 }, (_, i) => Buffer.alloc(1000 + i * 97, i));
  while (made.size < 400) {
    const name = Buffer.from(
      Array.from({ length: 1 + Math.floor(random() * 30) }, () => {
        const byte = 1 + Math.floor(random() * 255);
        return byte === 0x2f ? 0x80 : byte; // anything but '/' and NUL
      }),
    );
    if (name.equals(Buffer.from('.')) || name.equals(Buffer.from('..'))) continue;
    const content = contents[Math.floor(random() * contents.length)]!;
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), name]), content);
    made.set(name.toString('hex'), content);
  }
  const onDisk = readdirSync(dir, { encoding: 'buffer' });
  const [listing] = await native.listFolders([dir]);
  assert.deepEqual(
    [...listing!.names].sort(),
    onDisk.map((name) => pathFromBytes(name)).sort(),
    `seed ${seed}: the addon lists what the app reads from the bytes`,
  );
  for (const name of listing!.names) {
    const hex = Buffer.from(pathToBytes(name)).toString('hex');
    assert.ok(made.has(hex), `seed ${seed}: ${JSON.stringify(name)} (${hex}) was made`);
  }

  const paths = listing!.names.map((name) => `${dir}/${name}`);
  const hashed = await native.hashFiles(paths);
  assert.deepEqual(hashed.failures, [], `seed ${seed}: every file found by its string`);
  paths.forEach((file, i) => {
    const content = made.get(Buffer.from(pathToBytes(path.basename(file))).toString('hex'))!;
    assert.deepEqual(hashed.digests.subarray(16 * i, 16 * i + 16), native.hashBytes(content));
  });
  const scan = await native.scanFolder({ path: dir });
  const scanned = scan.groups.flatMap((g) => g.files.map((f) => f.path));
  assert.deepEqual(scanned.sort(), [...paths].sort(), `seed ${seed}: every file in a group`);

  // A missing one: the error names exactly the string asked for, in its path and its message.
  const missing = `${dir}/${pathFromBytes(Buffer.from([0x6e, 0xe9, 0xff]))}`;
  await assert.rejects(native.timedRead(missing), (error: NodeJS.ErrnoException) => {
    assert.equal(error.code, 'ENOENT');
    assert.equal(error.path, missing);
    assert.ok(error.message.includes(missing), error.message);
    return true;
  });
}); // prettier-ignore
