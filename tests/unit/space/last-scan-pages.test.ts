/**
 * A kept scan reopens a page at a time: its groups read through its index, page by page, are the
 * groups it was kept with (names with quotes, emoji, control characters and bytes that are not
 * UTF-8 included); a kept file from an older Plumb (no index) is still read, and kept again with
 * one; an index that no longer fits its file is not trusted. Through the space operations, the
 * view gets the first page and the count, asks for the rest, and acts on groups it never loaded.
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { firstGroupsPage, groupsPage } from '../../../app/common/groups-page.js';
import { ScanResult, type DuplicateGroup } from '../../../app/contract/space.js';
import type { EventSink } from '../../../app/core/dispatch.js';
import { plumbFolders } from '../../../app/core/paths.js';
import {
  keptGroups,
  loadLastScan,
  openLastScan,
  saveLastScan,
} from '../../../app/core/space/last-scan.js';
import { spaceHandlers } from '../../../app/core/space/service.js';
import { totalsOf } from '../../../app/core/space/after-apply.js';
import { withRemovableTotal } from '../../../app/common/removable.js';

let data: string;
const scansDir = () => plumbFolders().spaceScans;
const previous = process.env.PLUMB_DATA_DIR;
before(() => {
  data = mkdtempSync(path.join(os.tmpdir(), 'plumb-scan-pages-'));
  process.env.PLUMB_DATA_DIR = data;
});
after(() => {
  if (previous === undefined) delete process.env.PLUMB_DATA_DIR;
  else process.env.PLUMB_DATA_DIR = previous;
  rmSync(data, { recursive: true, force: true });
});

/** Names that JSON escapes or writes in more than one byte a character. */
const trap = ['quote " and \\ back', 'emoji 📸', 'tab\tnewline\n', 'raw \udc80\udcff bytes', 'é'];

function groupOf(root: string, i: number): DuplicateGroup {
  const size = 1000 + i;
  const files = Array.from({ length: 2 + (i % 3) }, (_, k) => ({
    path: `${root}/${trap[(i + k) % trap.length]}/${i}-${k}.bin`,
    size,
    ino: i * 10 + k,
    mtimeMs: 1.7e12 + i + 0.25,
    ctimeMs: -86_400_000.5,
    links: 1,
    reclaimableBytes: i % 7 === 0 ? null : size,
    alreadyClone: i % 5 === 0 ? null : false,
  }));
  return {
    id: `${size}-${i.toString(16).padStart(16, '0')}`,
    size,
    keeper: files[0]!.path,
    files,
    nominalBytes: size * (files.length - 1),
    sharedBytes: 0,
    reclaimableBytes: i % 7 === 0 ? null : size * (files.length - 1),
    note: i % 11 === 0 ? `a "note" ${trap[i % trap.length]}` : null,
  };
}

function scanOf(root: string, groupCount: number): ScanResult {
  const groups = Array.from({ length: groupCount }, (_, i) => groupOf(root, i));
  const skipped = { symlinks: 1, otherVolumes: 0, extraHardLinks: 2, special: 0, excluded: 0 };
  return ScanResult.parse({
    scanId: `scan of ${root}`,
    root,
    fsType: 'ext4',
    sharingSupported: false,
    files: groupCount * 3,
    bytes: 123_456_789,
    seconds: 1.5,
    skipped: { ...skipped, unreadable: 0 },
    groups,
    totals: withRemovableTotal({ groups, totals: totalsOf(groups) }).totals,
    sparse: { files: 0, logicalBytes: 0, allocatedBytes: 0 },
    contentRead: { files: 7, bytes: 70 },
  });
}

test('groups read page by page are the groups kept, whatever the page size', async () => {
  const scan = scanOf('/home/a/photos 📸', 1234);
  await saveLastScan(scansDir(), scan, new Date('2026-11-01T10:00:00Z'));
  const kept = await openLastScan(scansDir(), scan.root);
  assert.ok(kept);
  assert.equal(kept.groupCount, 1234);
  assert.equal(kept.savedAt, '2026-11-01T10:00:00.000Z');
  assert.deepEqual({ ...kept.head, groups: scan.groups }, scan, 'the figures, whole');
  for (const size of [1, 7, groupsPage, 1234, 5000]) {
    const paged: DuplicateGroup[] = [];
    for (let start = 0; start < kept.groupCount; start += size) {
      paged.push(...(await keptGroups(kept, start, start + size)));
    }
    assert.deepEqual(paged, scan.groups, `pages of ${size}`);
  }
  assert.deepEqual(await keptGroups(kept, 1230, 9999), scan.groups.slice(1230));
  assert.deepEqual(await keptGroups(kept, 1234, 1300), []);
  // The document alone is still a whole saved scan, as older versions read it.
  const file = path.join(scansDir(), path.basename(kept.file));
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
    savedAt: kept.savedAt,
    result: scan,
  });
  assert.deepEqual((await loadLastScan(scansDir(), scan.root))?.result, scan);
});

test('a scan with no groups is kept and reopened', async () => {
  const scan = scanOf('/home/empty', 0);
  await saveLastScan(scansDir(), scan);
  const kept = await openLastScan(scansDir(), scan.root);
  assert.equal(kept?.groupCount, 0);
  assert.deepEqual(await keptGroups(kept!, 0, groupsPage), []);
});

test('a kept scan from an older version (no index) is read, and kept again with one', async () => {
  const scan = scanOf('/home/old', 50);
  await saveLastScan(scansDir(), scan);
  const kept = (await openLastScan(scansDir(), scan.root))!;
  const index = kept.file.replace(/\.json$/, '.index.json');
  rmSync(index);
  // As an older Plumb wrote it: indented, groups before the totals.
  writeFileSync(
    kept.file,
    JSON.stringify({ savedAt: '2026-01-01T00:00:00.000Z', result: scan }, null, 2),
  );
  const reopened = await openLastScan(scansDir(), scan.root);
  assert.equal(reopened?.savedAt, '2026-01-01T00:00:00.000Z');
  assert.ok(existsSync(index), 'indexed for the next time');
  assert.deepEqual(await keptGroups(reopened!, 0, 50), scan.groups);
  // A document changed behind its index (another version kept it again) is read whole again.
  const other = scanOf('/home/old', 3);
  writeFileSync(kept.file, JSON.stringify({ savedAt: '2026-02-02T00:00:00.000Z', result: other }));
  const again = await openLastScan(scansDir(), scan.root);
  assert.equal(again?.savedAt, '2026-02-02T00:00:00.000Z');
  assert.deepEqual(await keptGroups(again!, 0, 50), other.groups);
  // Damaged: as if never scanned.
  writeFileSync(kept.file, '{"savedAt":');
  rmSync(index);
  assert.equal(await openLastScan(scansDir(), scan.root), null);
});

test('the view gets the first page and the count, pages the rest, acts on any group', async () => {
  const scan = scanOf('/home/b/music', firstGroupsPage + 2 * groupsPage + 17);
  await saveLastScan(scansDir(), scan);
  const handlers = spaceHandlers(plumbFolders());
  const context = { emit: (() => undefined) as EventSink } as never;
  const reopened = await handlers['space.lastScan']({ path: scan.root }, context);
  assert.ok(reopened);
  assert.equal(reopened.groupCount, scan.groups.length);
  assert.deepEqual(reopened.result.groups, scan.groups.slice(0, firstGroupsPage));
  const groups = [...reopened.result.groups];
  while (groups.length < reopened.groupCount) {
    const page = await handlers['space.groups'](
      { scanId: scan.scanId, offset: groups.length, limit: groupsPage },
      context,
    );
    assert.equal(page.root, scan.root);
    assert.equal(page.figures.files, scan.files);
    assert.ok(page.groups.length > 0);
    groups.push(...page.groups);
  }
  assert.deepEqual(groups, scan.groups);
  assert.deepEqual(await handlers['space.result']({ scanId: scan.scanId }, context), scan);
  // A dry run of groups on the last page, never loaded by the view, goes through their copies.
  const chosen = scan.groups.slice(-3);
  const plan = await handlers['space.dedupe'](
    { scanId: scan.scanId, groupIds: chosen.map((g) => g.id), apply: false },
    context,
  );
  assert.deepEqual(
    [...new Set(plan.actions.map((a) => a.groupId))].sort(),
    chosen.map((g) => g.id).sort(),
  );
  await assert.rejects(
    handlers['space.groups']({ scanId: 'not a scan', offset: 0, limit: 1 }, context),
    { code: 'ENOSCAN' },
  );
  // A newer scan of the folder replaces the kept file: the old scan's pages are not read from it.
  await saveLastScan(scansDir(), { ...scan, scanId: 'newer', groups: scan.groups.slice(1) });
  await assert.rejects(
    handlers['space.groups']({ scanId: scan.scanId, offset: 0, limit: 1 }, context),
    { code: 'ENOSCAN', message: /replaced by a newer scan/ },
  );
});

test('a scan of up to 5,000 groups comes whole in its first page', async () => {
  const scan = scanOf('/home/c/docs', firstGroupsPage);
  await saveLastScan(scansDir(), scan);
  const handlers = spaceHandlers(plumbFolders());
  const context = { emit: (() => undefined) as EventSink } as never;
  const reopened = await handlers['space.lastScan']({ path: scan.root }, context);
  assert.equal(reopened?.groupCount, firstGroupsPage);
  assert.deepEqual(reopened.result.groups, scan.groups);
});

test('an apply on a kept scan rewrites its file and index: a reopen or a page shows it', async () => {
  // Real copies, last in a scan of more groups than its first page (the others name no file).
  const folder = path.join(data, 'files');
  mkdirSync(folder, { recursive: true });
  const names = ['a.bin', 'b.bin', 'c.bin'].map((n) => path.join(folder, n));
  for (const name of names) writeFileSync(name, 'the same content, three times over\n');
  const facts = names.map((name) => {
    const { ino, size, mtimeMs, ctimeMs } = statSync(name);
    return { path: name, size, ino, mtimeMs, ctimeMs, links: 1, reclaimableBytes: size };
  });
  const size = facts[0]!.size;
  const copies: DuplicateGroup = {
    id: 'real copies',
    size,
    keeper: names[0]!,
    files: facts.map((f, i) => ({
      ...f,
      reclaimableBytes: i === 0 ? 0 : size,
      alreadyClone: false,
    })),
    nominalBytes: 2 * size,
    sharedBytes: 0,
    reclaimableBytes: 2 * size,
    note: null,
  };
  const other = scanOf(folder, firstGroupsPage + 3);
  const groups = [...other.groups, copies];
  const scan = withRemovableTotal({
    ...other,
    scanId: 'applied',
    groups,
    totals: totalsOf(groups),
  });
  const savedAt = new Date('2026-11-02T08:00:00Z');
  await saveLastScan(scansDir(), scan, savedAt);
  const handlers = spaceHandlers(plumbFolders());
  const context = { emit: (() => undefined) as EventSink } as never;
  const reopened = await handlers['space.lastScan']({ path: folder }, context);
  assert.ok(reopened);
  assert.ok(!reopened.result.groups.some((g) => g.id === copies.id), 'not in the first page');
  const dataHome = process.env.XDG_DATA_HOME;
  process.env.XDG_DATA_HOME = path.join(data, 'share');
  try {
    const report = await handlers['space.trash'](
      { scanId: scan.scanId, groupIds: [copies.id], apply: true },
      context,
    );
    assert.equal(report.counts.moved, 2, JSON.stringify(report.actions));
  } finally {
    if (dataHome === undefined) delete process.env.XDG_DATA_HOME;
    else process.env.XDG_DATA_HOME = dataHome;
  }
  // On disk: the same scan, its time kept, the group of copies gone, read through its new index.
  const kept = await openLastScan(scansDir(), folder);
  assert.ok(kept);
  assert.equal(kept.savedAt, savedAt.toISOString());
  assert.equal(kept.groupCount, other.groups.length);
  assert.equal(kept.head.files, scan.files - 2);
  assert.deepEqual(
    kept.head.totals,
    withRemovableTotal({ groups: other.groups, totals: totalsOf(other.groups) }).totals,
    'the totals without the group, counted from the old ones',
  );
  const index = JSON.parse(readFileSync(kept.file.replace(/\.json$/, '.index.json'), 'utf8')) as {
    bytes: number;
  };
  assert.equal(index.bytes, statSync(kept.file).size, 'the index is of the new file');
  const paged: DuplicateGroup[] = [];
  for (let start = 0; start < kept.groupCount; start += groupsPage)
    paged.push(...(await keptGroups(kept, start, start + groupsPage)));
  assert.deepEqual(paged, other.groups);
  // In the service: the view's reload of page 1 and its later pages are of the applied scan.
  const first = await handlers['space.groups'](
    { scanId: scan.scanId, offset: 0, limit: firstGroupsPage },
    context,
  );
  assert.equal(first.groupCount, other.groups.length);
  assert.equal(first.figures.files, scan.files - 2);
  const last = await handlers['space.groups'](
    { scanId: scan.scanId, offset: firstGroupsPage, limit: groupsPage },
    context,
  );
  assert.deepEqual(last.groups, other.groups.slice(firstGroupsPage));
});
