/**
 * A scan held to a small memory budget (PLUMB_SCAN_MEMORY, the user's setting) writes the digests
 * it keeps for the next scan to sorted runs beside the hash cache and merges them at the end: the
 * runs are seen being written and none is left, and the printed scan and the cache file are
 * byte for byte those of a scan that held everything in memory (PLUMB_SCAN_MEMORY=0), on a first
 * scan, on a rescan of the unchanged tree (no content read) and on a rescan after a change (the
 * last scan's records kept beside new runs). The tree has traps: hard links, clones (where the
 * file system makes them), empty files, files of one size with different content, files equal at
 * both ends but not in the middle, a file the scan cannot read and symbolic links. Where the data
 * folder's disk has no room for runs, the scan holds its digests instead and fills nothing.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  constants,
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statfsSync,
  symlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { ScanResult } from '../../app/contract/space.js';
import { plumbBin, runPlumb } from '../helpers/cli.js';
import { mountTmpfs, tmpfsSkipReason } from '../helpers/loopfs.js';

const base = mkdtempSync(path.join(tmpdir(), 'plumb-scan-spill-'));
after(() => rmSync(base, { recursive: true, force: true }));
const root = path.join(base, 'tree');
// Root reads any file: the scan runs as another user there, so a file it cannot read is one.
const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

function buildTree(): void {
  for (const folder of ['a', 'b', 'links', 'large'])
    mkdirSync(path.join(root, folder), { recursive: true });
  // 120 files of one size: 40 pairs of copies, 40 alike only in size.
  for (let i = 0; i < 80; i += 1) {
    const data = randomBytes(700);
    writeFileSync(path.join(root, 'a', `f${i}`), data);
    if (i < 40) writeFileSync(path.join(root, 'b', `copy${i}`), data);
  }
  for (let i = 0; i < 5; i += 1) writeFileSync(path.join(root, 'a', `empty${i}`), '');
  linkSync(path.join(root, 'a', 'f0'), path.join(root, 'links', 'f0 again'));
  linkSync(path.join(root, 'a', 'f50'), path.join(root, 'links', 'f50 again'));
  symlinkSync(path.join(root, 'a', 'f1'), path.join(root, 'links', 'to f1'));
  symlinkSync(path.join(root, 'a'), path.join(root, 'links', 'to a'));
  // A clone where the file system makes them (a copy elsewhere).
  copyFileSync(
    path.join(root, 'a', 'f2'),
    path.join(root, 'b', 'clone of f2'),
    constants.COPYFILE_FICLONE,
  );
  // Equal at both ends (the edge digest), different in the middle: two groups, not one.
  const large = randomBytes(300_000);
  const other = Buffer.from(large);
  other[150_000] = other[150_000]! ^ 1;
  for (const [name, data] of [
    ['l1', large],
    ['l2', large],
    ['l3', other],
    ['l4', other],
  ] as const)
    writeFileSync(path.join(root, 'large', name), data);
  writeFileSync(path.join(root, 'a', 'unreadable'), readFileSync(path.join(root, 'a', 'f3')));
  chmodSync(path.join(root, 'a', 'unreadable'), 0);
  if (user) chownSync(base, user.uid, user.gid);
}

interface Scan {
  stdout: string;
  runsSeen: string[];
}

/** `plumb space scan ROOT --json` with its own data folder and budget, watching for runs. */
async function scan(dataDir: string, memory: string): Promise<Scan> {
  const scans = path.join(dataDir, 'space-scans');
  mkdirSync(scans, { recursive: true, mode: 0o700 });
  if (user) {
    chownSync(dataDir, user.uid, user.gid);
    chownSync(scans, user.uid, user.gid);
  }
  const runsSeen = new Set<string>();
  const watcher = watch(scans, (_event, name) => {
    if (name && /\.run\d+$/.test(name)) runsSeen.add(name);
  });
  try {
    const child = spawn(process.execPath, [plumbBin, 'space', 'scan', root, '--json'], {
      env: {
        ...process.env,
        PLUMB_DATA_DIR: dataDir,
        PLUMB_STATE_DIR: dataDir,
        PLUMB_SCAN_MEMORY: memory,
      },
      ...user,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    return { stdout, runsSeen: [...runsSeen] };
  } finally {
    watcher.close();
  }
}

/** The text with what differs between any two scans of the same tree blanked. */
function comparable(text: string, rescan = false): string {
  const out = text.replace(/^(\s*"(?:scanId|seconds|walk|compare|hash|sharing)": ).*$/gm, '$1…');
  if (!rescan) return out;
  return out.replace(/("contentRead": \{\n\s*"files": )\d+(,\n\s*"bytes": )\d+/, '$1…$2…');
}

function cacheOf(dataDir: string): Buffer {
  const scans = path.join(dataDir, 'space-scans');
  const files = readdirSync(scans);
  assert.deepEqual(
    files.filter((f) => !f.endsWith('.hashes')),
    [],
    'only the hash cache is left (no runs, no temporary file)',
  );
  const [cache] = files;
  return readFileSync(path.join(scans, cache!));
}

test('a scan spilled to sorted runs prints and keeps what a scan held in memory does', async () => {
  buildTree();
  const held = path.join(base, 'held');
  const spilled = path.join(base, 'spilled');

  const first = await scan(held, '0');
  const result = JSON.parse(first.stdout) as ScanResult;
  assert.equal(first.runsSeen.length, 0, 'PLUMB_SCAN_MEMORY=0 holds every digest');
  assert.equal(result.groups.length, 42, '40 of copies (f2 with its clone too), two large pairs');
  assert.equal(result.skipped.unreadable, 1, 'the file the scan cannot read');
  assert.equal(result.skipped.symlinks, 2);
  assert.equal(result.skipped.extraHardLinks, 2);
  assert.ok(result.groups.some((g) => g.files.some((f) => f.links === 2)));

  const firstSpilled = await scan(spilled, '1KB');
  assert.ok(firstSpilled.runsSeen.length >= 3, `runs written: ${firstSpilled.runsSeen.join(', ')}`);
  assert.equal(comparable(firstSpilled.stdout), comparable(first.stdout));
  assert.deepEqual(cacheOf(spilled), cacheOf(held), 'the same hash cache, byte for byte');

  // Unchanged: no content is read, nothing remembered, nothing spilled; the same scan.
  const rescan = await scan(spilled, '1KB');
  assert.deepEqual(
    (JSON.parse(rescan.stdout) as ScanResult).contentRead,
    { files: 1, bytes: 0 },
    'only the file it cannot read is tried again',
  );
  assert.equal(rescan.runsSeen.length, 0);
  assert.equal(comparable(rescan.stdout, true), comparable(first.stdout, true));

  // Changed: some files are read again; their records spill beside the last scan's kept ones.
  for (let i = 40; i < 80; i += 1) writeFileSync(path.join(root, 'a', `f${i}`), randomBytes(700));
  writeFileSync(path.join(root, 'large', 'l4'), randomBytes(300_000));
  const heldAgain = await scan(held, '0');
  const spilledAgain = await scan(spilled, '1KB');
  assert.ok(spilledAgain.runsSeen.length >= 2, 'the files read again spill');
  assert.equal(comparable(spilledAgain.stdout), comparable(heldAgain.stdout));
  assert.deepEqual(cacheOf(spilled), cacheOf(held));
});

test('a data folder without room for runs holds the digests and keeps the same cache', async (t) => {
  const reason = tmpfsSkipReason();
  if (reason) {
    t.skip(`needs a small file system for the data folder: ${reason}`);
    return;
  }
  if (!readdirSync(base).includes('tree')) buildTree();
  const held = path.join(base, 'held-for-full');
  const reference = await scan(held, '0');
  // A 1 MiB disk with less than a tenth of it free: a run must leave a tenth free; the finished
  // cache (a few KB) still fits.
  const disk = mountTmpfs(1024 * 1024);
  try {
    const free = () => statfsSync(disk.dir).bavail * statfsSync(disk.dir).bsize;
    const keep = 16 * 1024 + Math.floor(Math.random() * 48) * 1024; // 16-64 KiB left
    writeFileSync(path.join(disk.dir, 'filler'), Buffer.alloc(free() - keep));
    const before = free();
    assert.ok(before < statfsSync(disk.dir).blocks * statfsSync(disk.dir).bsize * 0.1);
    const full = await scan(disk.dir, '1KB');
    assert.deepEqual(full.runsSeen, [], 'no run is written where it would leave too little free');
    assert.equal(comparable(full.stdout), comparable(reference.stdout));
    assert.deepEqual(cacheOf(disk.dir), cacheOf(held), 'the same hash cache, byte for byte');
  } finally {
    disk.unmount();
  }
});

test('a PLUMB_SCAN_MEMORY that is not a size stops the scan with one line', () => {
  mkdirSync(root, { recursive: true });
  const result = runPlumb(['space', 'scan', root, '--json'], {
    env: { PLUMB_DATA_DIR: path.join(base, 'bad'), PLUMB_SCAN_MEMORY: 'lots' },
  });
  assert.notEqual(result.status, 0);
  assert.equal(result.stdout, '');
  assert.match(result.stderr.trim(), /^[^\n]*PLUMB_SCAN_MEMORY must be a size such as 64MB[^\n]*$/);
});
