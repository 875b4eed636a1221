/**
 * Which kept scan a session may be shown on opening the Space view: the newest of a folder it
 * chose, found from the head of each kept file (a scan can be 180 MB), or from the whole file
 * when its head does not say.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ScanResult } from '../../../app/contract/space.js';
import { newestScanRoot, saveLastScan } from '../../../app/core/space/last-scan.js';

/** The kept scans' folder, as the context gives it (folders.spaceScans). */
let dir: string;
before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-last-scan-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

function scanOf(root: string): ScanResult {
  const skipped = { symlinks: 0, otherVolumes: 0, extraHardLinks: 0, special: 0, excluded: 0 };
  return ScanResult.parse({
    scanId: `scan of ${root}`,
    root,
    fsType: 'ext4',
    sharingSupported: false,
    files: 0,
    bytes: 0,
    seconds: 0,
    skipped: { ...skipped, unreadable: 0 },
    groups: [],
    totals: { nominalBytes: 0, sharedBytes: 0, reclaimableBytes: 0, unknownGroups: 0 },
    sparse: { files: 0, logicalBytes: 0, allocatedBytes: 0 },
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('the newest kept scan of a folder the session chose, its root read from the head', async () => {
  const roots = ['/home/a/photos', '/home/b/a "quoted" \\ root', '/home/a/music'];
  for (const root of roots) {
    await saveLastScan(dir, scanOf(root));
    await sleep(20); // kept files are ordered by their time
  }
  const asked: string[] = [];
  const only = (allowed: string[]) => async (root: string) => {
    asked.push(root);
    return allowed.includes(root);
  };
  assert.equal(await newestScanRoot(dir, only(['/home/a/photos'])), '/home/a/photos');
  assert.deepEqual(asked, [...roots].reverse(), 'asked newest first');
  assert.equal(await newestScanRoot(dir, only([roots[1]!])), roots[1], 'quotes read back');
  assert.equal(await newestScanRoot(dir, only(['/elsewhere'])), null);
});

test('a kept scan whose head does not name its root is read whole', async () => {
  const file = path.join(dir, 'written-otherwise.json');
  // A savedAt of 100 K characters puts the root past the head that is read first.
  const savedAt = `2026-01-01T00:00:00.000Z${' '.repeat(100_000)}`;
  writeFileSync(file, JSON.stringify({ savedAt, result: scanOf('/late/root') }));
  const future = new Date(Date.now() + 60_000);
  utimesSync(file, future, future);
  assert.equal(await newestScanRoot(dir, async (root) => root === '/late/root'), '/late/root');
});

test('the root is read from the head of an indented kept scan too, the rest left unread', async () => {
  const file = path.join(dir, 'indented.json');
  // As the app keeps a new scan: the figures as the engine writes them, indented; what follows
  // the head is not read (here it is not even JSON).
  const head = JSON.stringify(
    { savedAt: '2026-01-01T00:00:00.000Z', result: scanOf('/in/dented') },
    null,
    2,
  );
  writeFileSync(
    file,
    `${head.slice(0, head.indexOf('"groups"'))}"groups": [${'x'.repeat(100_000)}`,
  );
  const future = new Date(Date.now() + 120_000);
  utimesSync(file, future, future);
  assert.equal(await newestScanRoot(dir, async (root) => root === '/in/dented'), '/in/dented');
});
