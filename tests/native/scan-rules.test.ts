import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { ScanOptions } from '../../app/contract/space.js';
import { tempPrefix } from '../../app/core/space/journal.js';
import { pathsUnder, scanFolder, scanFolderSummary } from '../../app/core/space/scan.js';
import { describeSparse, listSparse } from '../../app/core/space/sparse.js';
import { holeFile } from '../helpers/space-files.js';

// The engine's walk (native/src/scan/scan.cc) by the skip rules, written out here name by name:
// which option leaves each folder or file out. 'always': Plumb's own temporary clones.
const root = mkdtempSync(path.join(tmpdir(), 'plumb-scan-rules-'));
after(() => rmSync(root, { recursive: true, force: true }));

type Rule = 'never' | 'always' | 'hidden' | 'package' | 'cloud';
const folders: [string, Rule][] = [
  ['Documents', 'never'], ['apps', 'never'], ['archive.tar', 'never'], ['Library2', 'never'],
  ['src', 'never'],
  ['Library', 'package'], ['Safari.app', 'package'], ['Photos Library.photoslibrary', 'package'],
  ['Notes.RTFD', 'package'], ['x.key', 'package'], ['Disk.sparsebundle', 'package'],
  ['.cache', 'hidden'], ['.git', 'hidden'], ['.app', 'hidden'],
  [`${tempPrefix}0123`, 'always'],
  ['Dropbox', 'cloud'], ['OneDrive - Acme', 'cloud'], ['OneDrive', 'cloud'],
  ['iCloud Drive', 'cloud'], ['Mobile Documents', 'cloud'], ['CloudStorage', 'cloud'],
  ['Box Sync', 'cloud'], ['MEGA', 'cloud'],
]; // prettier-ignore
const files: [string, Rule][] = [
  ['plain.txt', 'never'], ['Safari.app', 'never'], ['Dropbox', 'never'],
  ['.bashrc', 'hidden'], ['.hidden.app', 'hidden'],
  [`${tempPrefix}99`, 'always'],
]; // prettier-ignore

function skippedBy(rule: Rule, options: Required<Omit<ScanOptions, 'path'>>): boolean {
  if (rule === 'always') return true;
  if (rule === 'hidden') return !options.includeHidden;
  if (rule === 'package') return options.skipPackages;
  if (rule === 'cloud') return options.skipCloudFolders;
  return false;
}

// Each folder holds a pair of identical files of a size no other pair has, so each pair found
// names the folder it was found in.
folders.forEach(([name], i) => {
  mkdirSync(path.join(root, name));
  const bytes = Buffer.alloc(100 + i, i + 1);
  writeFileSync(path.join(root, name, 'a'), bytes);
  writeFileSync(path.join(root, name, 'b'), bytes);
});
// Files with skip-worthy names, each beside a plain copy of itself.
files.forEach(([name], i) => {
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
  test(`the scan skips by the rules: ${JSON.stringify(options)}`, async () => {
    const result = await scanFolder({ path: root, ...options });
    const found = new Set(result.groups.map((g) => path.basename(path.dirname(g.files[0]!.path))));
    const expected = new Set([
      ...folders.filter(([, rule]) => !skippedBy(rule, options)).map(([name]) => name),
      ...files.flatMap(([, rule], i) => (skippedBy(rule, options) ? [] : [`f${i}`])),
    ]);
    assert.deepEqual([...found].sort(), [...expected].sort());
    const excluded = [...folders, ...files].filter(([, rule]) => skippedBy(rule, options));
    assert.equal(result.skipped.excluded, excluded.length);
  });
}

test('the sparse listing walks everywhere but into temporary clones, once per file', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'plumb-sparse-rules-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sparse = (file: string) => holeFile(file, 8 << 20);
  sparse(path.join(dir, 'plain', 'disk.img'));
  if ((await describeSparse(path.join(dir, 'plain', 'disk.img'))).allocatedBytes >= 8 << 20) {
    t.skip(`${tmpdir()} stores no holes, so no file there is sparse`);
    return;
  }
  const listed = ['.hidden/a.img', 'Library/b.img', 'Dropbox/c.img', 'Safari.app/d.img'];
  for (const name of listed) sparse(path.join(dir, name));
  sparse(path.join(dir, `${tempPrefix}7`, 'e.img'));
  writeFileSync(path.join(dir, 'plain', 'dense'), Buffer.alloc(1 << 20, 1));
  // Sparse means at least 64 KiB short of its size: one block written, then a hole.
  const gap = (name: string, holeBytes: number) => {
    const file = path.join(dir, 'plain', name);
    writeFileSync(file, Buffer.alloc(4096, 1));
    truncateSync(file, 4096 + holeBytes);
  };
  gap('gap-60k', 60 * 1024);
  gap('gap-64k', 64 * 1024);
  const found = await pathsUnder(dir, { sparse: true });
  assert.deepEqual(
    found.map((file) => path.relative(dir, file)).sort(),
    ['plain/disk.img', 'plain/gap-64k', ...listed]
      .map((name) => path.join(...name.split('/')))
      .sort(),
  );
  // One file named alone is listed by the same rule: a dense file or a short gap is no sparse file.
  for (const [name, listedAlone] of [
    ['dense', false],
    ['gap-60k', false],
    ['gap-64k', true],
  ] as const) {
    const alone = await listSparse(path.join(dir, 'plain', name));
    assert.equal(alone.length, listedAlone ? 1 : 0, name);
  }
  const files = await listSparse(dir);
  assert.equal(files.length, 6);
  // Largest saving first: the five empty 8 MiB files, then the one block with its 64 KiB hole.
  assert.ok(files.slice(0, 5).every((f) => f.logicalBytes === 8 << 20 && f.data.length === 0));
  assert.deepEqual(files[5]!.data, [{ offset: 0, length: 4096 }]);
});

test('the sparse listing: a missing folder is a clear error, a cancel stops it', async () => {
  await assert.rejects(pathsUnder(path.join(root, 'no-such-folder'), { sparse: true }), {
    code: 'ENOENT',
    message: /no-such-folder/,
  });
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(pathsUnder(root, { sparse: true }, { signal: controller.signal }), {
    code: 'ECANCELED',
    message: 'The sparse-file search was cancelled.',
  });
});

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

test('a summary is the scan with only its largest groups made', async () => {
  const whole = await scanFolder({ path: root });
  assert.ok(whole.groups.length > 5);
  for (const shown of [0, 3, whole.groups.length + 10]) {
    const summary = await scanFolderSummary({ path: root }, {}, shown);
    const { groupCount, largestGroups, ...figures } = summary;
    const { groups, ...wholeFigures } = whole;
    assert.equal(groupCount, groups.length);
    // The same groups in the same order (ids and times are each scan's own).
    const plain = (list: typeof groups) =>
      list.map(({ id: _id, files, ...g }) => ({
        ...g,
        files: files.map(({ path: file, size }) => ({ file, size })),
      }));
    assert.deepEqual(plain(largestGroups), plain(groups.slice(0, shown)));
    const { scanId: _a, seconds: _b, stageSeconds: _c, ...sameFigures } = figures;
    const { scanId: _d, seconds: _e, stageSeconds: _f, ...sameWhole } = wholeFigures;
    assert.deepEqual(sameFigures, sameWhole);
  }
});
