import assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { walkFolder } from '../../../app/core/space/walk.js';

const options = { minBytes: 1, includeHidden: true, skipPackages: true, skipCloudFolders: true };

test('sameSizeOnly keeps only files whose size another file has, hard links counted once', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'plumb-walk-'));
  try {
    mkdirSync(path.join(root, 'sub'));
    writeFileSync(path.join(root, 'one'), 'a');
    writeFileSync(path.join(root, 'two-a'), 'bb');
    writeFileSync(path.join(root, 'sub', 'two-b'), 'cc');
    writeFileSync(path.join(root, 'three'), 'ddd');
    // A second name of a file of unique size: still one file, still not a candidate.
    linkSync(path.join(root, 'three'), path.join(root, 'sub', 'three-link'));
    // A second name of a candidate: counted on the kept file.
    linkSync(path.join(root, 'two-a'), path.join(root, 'sub', 'two-a-link'));

    const all = await walkFolder(root, options);
    const same = await walkFolder(root, { ...options, sameSizeOnly: true });

    assert.equal(all.files.length, 4);
    // Whichever name of the linked file the walk met first stands for it.
    const names = same.files.map((f) => path.relative(root, f.path));
    assert.equal(names.length, 2);
    assert.ok(names.includes(path.join('sub', 'two-b')));
    assert.ok(names.includes('two-a') || names.includes(path.join('sub', 'two-a-link')));
    assert.deepEqual(
      same.files.map((f) => f.size),
      [2, 2],
    );
    assert.equal(
      same.files.reduce((sum, f) => sum + f.links, 0),
      3,
    );
    for (const walked of [all, same]) {
      assert.equal(walked.fileCount, 4);
      assert.equal(walked.byteCount, 8);
      assert.equal(walked.skipped.extraHardLinks, 2);
    }
    // The same facts either way for the files both keep.
    for (const file of same.files) {
      assert.deepEqual(
        all.files.find((f) => f.path === file.path),
        file,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
