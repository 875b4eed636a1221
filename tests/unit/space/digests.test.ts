import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { refineByDigest } from '../../../app/core/space/digests.js';
import { loadNative } from '../../../app/core/native/load.js';

test('refineByDigest keeps sub-groups in first-seen order, members in order, with their digest', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'plumb-digests-'));
  try {
    const contents: Record<string, string> = {
      a1: 'apple',
      b1: 'berry',
      a2: 'apple',
      c: 'cherry',
      b2: 'berry',
      a3: 'apple',
      x: 'xx',
      y: 'yy',
      p: 'pear',
      q: 'pear',
    };
    for (const [name, text] of Object.entries(contents)) writeFileSync(path.join(root, name), text);
    const at = (name: string): string => path.join(root, name);
    const groups = [
      // Three contents, interleaved, and a member that cannot be read.
      ['b1', 'a1', 'missing', 'a2', 'c', 'b2', 'a3'],
      ['x', 'y'],
      ['p', 'q'],
      ['p', 'missing'],
    ];
    const result = await refineByDigest(groups, at);

    assert.deepEqual(result.groups, [
      ['b1', 'b2'],
      ['a1', 'a2', 'a3'],
      ['p', 'q'],
    ]);
    assert.equal(result.failed, 2);
    const digestOf = (text: string): string =>
      loadNative().hashBytes(Buffer.from(text)).toString('hex');
    assert.deepEqual(result.digests, [digestOf('berry'), digestOf('apple'), digestOf('pear')]);

    assert.deepEqual(await refineByDigest([], at), { groups: [], digests: [], failed: 0 });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
