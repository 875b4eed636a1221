/**
 * A scan at a large library's proportions, every CI run: a million files, a fifth of them copies,
 * 1 GB, the tree `npm run bench:space` builds (scripts/bench-space-tree.mjs), here in a
 * loop-mounted ext4 image (root). Through the shipped CLI with its defaults (`plumb space scan
 * --json`, the hash cache in the data folder, digests spilled past PLUMB_SCAN_MEMORY's default):
 * the first scan finds exactly the copies the tree was written with, no group more or less, and
 * the rescan of the unchanged tree reads no file's content and finds the same groups; the summary
 * `plumb space scan` prints without --json counts them all and lists the largest the same way.
 * Times and peaks are bench:space's business, not asserted here.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { ensureTree, sourceOf } from '../../scripts/bench-space-tree.mjs';
import { plumbBin } from '../helpers/cli.js';

const fileCount = 1_000_000;
const duplicateShare = 0.2;

function skipReason(): string | undefined {
  if (process.platform !== 'linux') return 'the tree is built in an ext4 image (Linux only)';
  if (process.getuid?.() !== 0) return 'mounting the ext4 image needs root';
  if (spawnSync('mkfs.ext4', ['-V']).status !== 0) return 'mkfs.ext4 is not installed';
  return undefined;
}

/** The CLI's environment: its data folder (for the hash cache) and the default spill. */
function cliEnv(dataDir: string): NodeJS.ProcessEnv {
  return { ...process.env, PLUMB_DATA_DIR: dataDir, PLUMB_SCAN_MEMORY: '' };
}

interface Scan {
  /** Each group's files by their number in the tree (f<i>.bin), in the scan's order. */
  groups: number[][];
  contentFiles: number;
}

/** Runs `plumb space scan DIR --json`, its text written to a file, and reads the groups back. */
async function scan(dir: string, dataDir: string, out: string): Promise<Scan> {
  const fd = openSync(out, 'w');
  try {
    const result = spawnSync(process.execPath, [plumbBin, 'space', 'scan', dir, '--json'], {
      env: cliEnv(dataDir),
      stdio: ['ignore', fd, 'pipe'],
      encoding: 'utf8',
      timeout: 600_000,
    });
    assert.equal(result.status, 0, result.stderr);
  } finally {
    closeSync(fd);
  }
  // Line by line (the text is 280 MB): a group opens with its id, then one "path" a file.
  const groups: number[][] = [];
  let contentFiles = NaN;
  let inContentRead = false;
  for await (const line of createInterface({ input: createReadStream(out) })) {
    const trimmed = line.trim();
    if (trimmed.startsWith('"id": ')) groups.push([]);
    else if (trimmed.startsWith('"path": ')) {
      const name = /\/f(\d+)\.bin",?$/.exec(trimmed);
      assert.ok(name, `a path not of the tree: ${trimmed}`);
      groups.at(-1)!.push(Number(name[1]));
    } else if (trimmed.startsWith('"contentRead": ')) inContentRead = true;
    else if (inContentRead && trimmed.startsWith('"files": ')) {
      contentFiles = Number(trimmed.slice('"files": '.length).replace(',', ''));
      inContentRead = false;
    }
  }
  return { groups, contentFiles };
}

/** `plumb space scan DIR`'s summary: the groups it counts, and those it lists as file numbers. */
function summary(
  dir: string,
  dataDir: string,
): { count: number; listed: number[][]; more: number } {
  const result = spawnSync(process.execPath, [plumbBin, 'space', 'scan', dir], {
    env: cliEnv(dataDir),
    encoding: 'utf8',
    timeout: 600_000,
  });
  assert.equal(result.status, 0, result.stderr);
  const lines = result.stdout.split('\n');
  const count = /^Duplicate groups: (\d+)$/m.exec(result.stdout);
  assert.ok(count, result.stdout);
  const more = /^ {2}… and (\d+) more groups \(--json lists all\)$/m.exec(result.stdout);
  const listed: number[][] = [];
  const number = (line: string) => Number(/\/f(\d+)\.bin$/.exec(line)?.[1] ?? NaN);
  for (const line of lines.slice(lines.indexOf('Largest groups:') + 1)) {
    if (line.startsWith('      = ')) listed.at(-1)!.push(number(line));
    else if (/^ +\S+ \S+ reclaimable {2}\d+ × /.test(line)) listed.push([number(line)]);
    else break;
  }
  return { count: Number(count[1]), listed, more: Number(more?.[1] ?? 0) };
}

test(
  'a million files: the first scan finds exactly the copies written; the rescan reads nothing',
  { skip: skipReason(), timeout: 1_800_000 },
  async () => {
    const base = mkdtempSync(path.join(tmpdir(), 'plumb-million-'));
    const dir = path.join(base, 'tree');
    const tree = await ensureTree({ dir, fileCount, totalBytes: 1e9, duplicateShare, image: true });
    try {
      // What was written: each unique that has copies, with how many files hold its content.
      const expected = new Map<number, number>();
      for (let i = 0; i < fileCount; i += 1) {
        const source = sourceOf(i, fileCount, duplicateShare);
        if (source !== i) expected.set(source, (expected.get(source) ?? 1) + 1);
      }
      const data = path.join(base, 'data');
      const first = await scan(dir, data, path.join(base, 'first.json'));
      assert.ok(first.contentFiles > 0, 'a first scan reads the candidates');
      assert.equal(first.groups.length, expected.size, 'one group a unique that has copies');
      for (const group of first.groups) {
        const source = Math.min(...group);
        assert.equal(group.length, expected.get(source), `the group of f${source}.bin`);
        for (const file of group) assert.equal(sourceOf(file, fileCount, duplicateShare), source);
      }
      const again = await scan(dir, data, path.join(base, 'rescan.json'));
      assert.equal(again.contentFiles, 0, 'a rescan of an unchanged tree reads no content');
      assert.deepEqual(again.groups, first.groups);
      // The summary, from the same scan without an object for each file in a group.
      const text = summary(dir, data);
      assert.equal(text.count, first.groups.length);
      assert.equal(text.listed.length, 20);
      assert.equal(text.more, first.groups.length - 20);
      text.listed.forEach((files, i) => {
        const group = first.groups[i]!;
        assert.ok(group.includes(files[0]!), `the keeper f${files[0]}.bin is of group ${i}`);
        assert.deepEqual([...files].sort(), [...group].sort(), `group ${i}`);
      });
      console.log(
        `${fileCount} files: ${first.groups.length} groups, ${first.contentFiles} files read, then 0`,
      );
    } finally {
      tree.cleanup();
      rmSync(base, { recursive: true, force: true });
    }
  },
);
