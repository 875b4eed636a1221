import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { ScanOptions } from '../../app/contract/space.js';
import { scanFolder } from '../../app/core/space/scan.js';
import { isSkippedFile, isSkippedFolder } from '../../app/core/space/walk.js';

// The scan walks in C++ (native/src/scan/scan.cc); the sparse listing walks in TypeScript
// (app/core/space/walk.ts). Both must skip exactly the same folders and files.
const root = mkdtempSync(path.join(tmpdir(), 'plumb-scan-rules-'));
after(() => rmSync(root, { recursive: true, force: true }));

const folders = [
  'Documents', 'Library', 'Safari.app', 'Photos Library.photoslibrary', 'Notes.RTFD', 'x.key',
  '.cache', '.plumb-clone-0123', 'Dropbox', 'OneDrive - Acme', 'OneDrive', 'iCloud Drive',
  'Box Sync', 'MEGA', 'apps', 'archive.tar', '.app', 'Library2',
]; // prettier-ignore
const files = ['.bashrc', '.plumb-clone-99', 'plain.txt', '.hidden.app'];

// Each folder holds a pair of identical files of a size no other pair has, so each pair found
// names the folder it was found in.
folders.forEach((name, i) => {
  mkdirSync(path.join(root, name));
  const bytes = Buffer.alloc(100 + i, i + 1);
  writeFileSync(path.join(root, name, 'a'), bytes);
  writeFileSync(path.join(root, name, 'b'), bytes);
});
// Files with skip-worthy names, each beside a plain copy of itself.
files.forEach((name, i) => {
  const bytes = Buffer.alloc(1000 + i, i + 1);
  mkdirSync(path.join(root, `f${i}`));
  writeFileSync(path.join(root, `f${i}`, name), bytes);
  writeFileSync(path.join(root, `f${i}`, 'copy'), bytes);
});

const settings: Required<Omit<ScanOptions, 'path'>>[] = [
  { minBytes: 1, includeHidden: true, skipPackages: true, skipCloudFolders: true },
  { minBytes: 1, includeHidden: false, skipPackages: true, skipCloudFolders: true },
  { minBytes: 1, includeHidden: true, skipPackages: false, skipCloudFolders: false },
  { minBytes: 1, includeHidden: false, skipPackages: false, skipCloudFolders: true },
];

for (const options of settings) {
  test(`the scan skips what walk.ts skips: ${JSON.stringify(options)}`, async () => {
    const result = await scanFolder({ path: root, ...options });
    const found = new Set(result.groups.map((g) => path.basename(path.dirname(g.files[0]!.path))));
    const expected = new Set([
      ...folders.filter((name) => !isSkippedFolder(name, options)),
      ...files.flatMap((name, i) => (isSkippedFile(name, options) ? [] : [`f${i}`])),
    ]);
    assert.deepEqual([...found].sort(), [...expected].sort());
    const skippedFolders = folders.filter((name) => isSkippedFolder(name, options)).length;
    const skippedFiles = files.filter((name) => isSkippedFile(name, options)).length;
    assert.equal(result.skipped.excluded, skippedFolders + skippedFiles);
  });
}

test('groups come largest reclaimable first, and the totals add the groups up', async () => {
  const result = await scanFolder({ path: root });
  const reclaimable = result.groups.map((g) => g.reclaimableBytes!);
  assert.ok(reclaimable.length > 5);
  assert.deepEqual(
    reclaimable,
    [...reclaimable].sort((a, b) => b - a),
  );
  const sum = (pick: (g: (typeof result.groups)[number]) => number | null) =>
    result.groups.reduce((s, g) => s + pick(g)!, 0);
  assert.deepEqual(result.totals, {
    nominalBytes: sum((g) => g.nominalBytes),
    sharedBytes: sum((g) => g.sharedBytes),
    reclaimableBytes: sum((g) => g.reclaimableBytes),
    unknownGroups: 0,
  });
});
