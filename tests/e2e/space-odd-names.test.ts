/**
 * File names that are bytes, not text (legal on Linux: anything but '/' and NUL), through the
 * command line as it ships: a tree whose folder and file names are not UTF-8, hold escape
 * sequences or line breaks, or are random bytes (seeded), is scanned, deduplicated on an XFS
 * reflink volume by both methods, moved to the Trash and emptied on ext4, and read by `plumb
 * read`. Every path in the JSON names its file's exact bytes (app/contract/path.ts), and the text
 * printed shows each such name escaped, never raw.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pathFromBytes, pathToBytes } from '../../app/common/path-text.js';
import { seededRandom } from '../../app/core/bench/seeded-random.js';
import { loadNative } from '../../app/core/native/load.js';
import type { DedupeReport, ScanResult, TrashReport } from '../../app/contract/space.js';
import { runPlumb } from '../helpers/cli.js';
import { loopSkipReason, mountLoopFs } from '../helpers/loopfs.js';
import { baseSeed } from '../helpers/synthetic-samples.js';

const state = mkdtempSync(path.join(tmpdir(), 'plumb-odd-names-'));
after(() => rmSync(state, { recursive: true, force: true }));
const env = { PLUMB_STATE_DIR: state, PLUMB_DATA_DIR: state };
const seed = baseSeed();
const uid = process.getuid?.() ?? 0;

/** Names no UTF-8 decoder reads as they are, and names that would act on a terminal. */
const oddNames = [
  Buffer.from('caf\xe9 latin-1.raw', 'latin1'),
  Buffer.from([0xff, 0xfe, 0x2e, 0x62, 0x69, 0x6e]),
  Buffer.from('half \xe2\x82 a euro', 'latin1'),
  Buffer.from('\xed\xb3\xa9 an encoded surrogate', 'latin1'),
  Buffer.from('esc \x1b[31mred\x1b[0m \x1b]0;title\x07.raw'),
  Buffer.from('two\nlines\r.raw'),
  Buffer.from('tab\there \u00e9t\u00e9 \u{1f4be}.raw'),
];

/** A name of random bytes: anything but '/' and NUL, never "." or "..". */
function randomName(random: () => number): Buffer {
  const bytes = Array.from({ length: 1 + Math.floor(random() * 20) }, () => {
    const byte = 1 + Math.floor(random() * 254);
    return byte === 0x2f ? 0x2e : byte;
  });
  return Buffer.from([0x72, ...bytes]); // a first letter: no hidden or '.'-only names
}

interface Tree {
  root: string;
  /** Each group's files, as byte paths; the first is the original (the oldest). */
  groups: Buffer[][];
}

/** Groups of identical files under odd folder and file names, one group per odd name. */
function makeTree(root: string, random: () => number): Tree {
  const names = [...oddNames, randomName(random), randomName(random), randomName(random)];
  const folders = [oddNames[0]!, oddNames[4]!, randomName(random)];
  const groups = names.map((name, g) => {
    const content = Buffer.alloc(64 * 1024 + Math.floor(random() * 256 * 1024));
    for (let i = 0; i + 4 <= content.length; i += 4)
      content.writeUInt32LE(Math.floor(random() * 2 ** 32), i);
    const copies = 2 + Math.floor(random() * 2);
    return Array.from({ length: copies }, (_, c) => {
      const folder = Buffer.concat([
        Buffer.from(`${root}/`),
        folders[(g + c) % folders.length]!,
        Buffer.from(`/${String(c)}`),
      ]);
      mkdirSync(folder, { recursive: true });
      const file = Buffer.concat([folder, Buffer.from('/'), name]);
      writeFileSync(file, content);
      return file;
    });
  });
  return { root, groups };
}

const sha = (file: Buffer): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** What a path of the contract names on disk. */
const bytesOf = (file: string): Buffer => Buffer.from(pathToBytes(file));

/** The text a terminal gets: no control character but line ends, no name's byte left raw. */
function assertPrintable(stdout: string, what: string): void {
  // eslint-disable-next-line no-control-regex
  const raw = /[\u0000-\u0009\u000b-\u001f\u007f\ufffd]/.exec(stdout);
  assert.equal(raw, null, `${what} printed ${JSON.stringify(raw?.[0])} raw:\n${stdout}`);
}

/** The scan's groups as sets of byte paths, to compare with the tree made. */
function scannedGroups(result: ScanResult): string[][] {
  return result.groups.map((g) => g.files.map((f) => bytesOf(f.path).toString('hex')).sort());
}

function treeGroups(tree: Tree): string[][] {
  return tree.groups.map((files) => files.map((f) => f.toString('hex')).sort());
}

const sorted = (groups: string[][]): string[] => groups.map((g) => g.join()).sort();

describe('names that are bytes, on an XFS reflink volume', { skip: loopSkipReason('xfs') }, () => {
  for (const method of ['dedupe-range', 'clone-rename'] as const) {
    test(`scan finds every copy by its bytes; dedupe (${method}) shares them all`, async () => {
      const volume = mountLoopFs('xfs', {
        sizeBytes: 512 * 1024 * 1024,
        mkfsArgs: ['-m', 'reflink=1'],
      });
      try {
        const tree = makeTree(path.join(volume.dir, 'tree'), seededRandom(seed));
        const scan = runPlumb(['space', 'scan', tree.root, '--json'], { env });
        assert.equal(scan.status, 0, scan.stderr);
        const result = JSON.parse(scan.stdout) as ScanResult;
        assert.deepEqual(sorted(scannedGroups(result)), sorted(treeGroups(tree)), `seed ${seed}`);
        assert.equal(result.skipped.unreadable, 0);

        const text = runPlumb(['space', 'scan', tree.root], { env });
        assert.equal(text.status, 0, text.stderr);
        assertPrintable(text.stdout, 'space scan');
        assert.match(text.stdout, /caf\\xe9 latin-1\.raw/);
        assert.match(text.stdout, /esc \\x1b\[31mred\\x1b\[0m \\x1b\]0;title\\x07\.raw/);
        assert.match(text.stdout, /two\\x0alines\\x0d\.raw/);

        const before = tree.groups.map((files) => sha(files[0]!));
        const dedupe = runPlumb(
          ['space', 'dedupe', tree.root, '--apply', '--method', method, '--json'],
          { env },
        );
        assert.equal(dedupe.status, 0, dedupe.stderr);
        const report = (JSON.parse(dedupe.stdout) as { dedupe: DedupeReport }).dedupe;
        const copies = tree.groups.reduce((sum, files) => sum + files.length - 1, 0);
        const notDone = report.actions.filter((a) => a.status !== 'done');
        assert.deepEqual(notDone, [], `seed ${seed}: every copy is deduplicated`);
        assert.equal(report.counts.done, copies);
        const native = loadNative();
        for (const [g, files] of tree.groups.entries()) {
          for (const file of files) {
            assert.equal(sha(file), before[g], 'every copy reads as it did');
            const sharing = await native.fileSharing(pathFromBytes(file));
            assert.ok(sharing.sharedBytes! > 0, `${file.toString('hex')} shares its blocks`);
          }
        }

        const printed = runPlumb(['space', 'dedupe', tree.root], { env });
        assert.equal(printed.status, 0, printed.stderr);
        assertPrintable(printed.stdout, 'space dedupe');
      } finally {
        volume.unmount();
      }
    });
  }
});

describe(
  'names that are bytes, on ext4 (the Trash, and plumb read)',
  { skip: loopSkipReason('ext4') },
  () => {
    test('trash moves every copy with a .trashinfo naming its bytes; --empty deletes exactly them', () => {
      const volume = mountLoopFs('ext4', { sizeBytes: 256 * 1024 * 1024 });
      try {
        const tree = makeTree(path.join(volume.dir, 'tree'), seededRandom(seed + 1));
        const dry = runPlumb(['space', 'trash', tree.root], { env });
        assert.equal(dry.status, 0, dry.stderr);
        assertPrintable(dry.stdout, 'space trash');

        const moved = runPlumb(['space', 'trash', tree.root, '--apply', '--json'], { env });
        assert.equal(moved.status, 0, moved.stderr);
        const report = (JSON.parse(moved.stdout) as { trash: TrashReport }).trash;
        const all = tree.groups.flat().map((file) => file.toString('hex'));
        const copies = report.actions.map((action) => bytesOf(action.target));
        assert.equal(copies.length, all.length - tree.groups.length, 'all but one of each group');
        assert.equal(report.counts.moved, copies.length, `seed ${seed + 1}: ${moved.stdout}`);
        const trash = path.join(volume.dir, `.Trash-${String(uid)}`);
        const recorded = readdirSync(path.join(trash, 'info'), { encoding: 'buffer' }).map(
          (name) => {
            const info = readFileSync(
              Buffer.concat([Buffer.from(`${trash}/info/`), name]),
              'latin1',
            );
            const escaped = /\nPath=(.*)\n/.exec(info)![1]!;
            // RFC 2396 escapes of the name's bytes, relative to the volume.
            return Buffer.concat([
              Buffer.from(`${volume.dir}/`),
              Buffer.from(
                escaped.replace(/%([0-9A-F]{2})/g, (_, hex: string) =>
                  String.fromCharCode(parseInt(hex, 16)),
                ),
                'latin1',
              ),
            ]).toString('hex');
          },
        );
        for (const copy of copies) {
          assert.ok(all.includes(copy.toString('hex')), 'a file of the tree');
          assert.ok(!existsSync(copy), 'moved');
        }
        assert.deepEqual(recorded.sort(), copies.map((c) => c.toString('hex')).sort());

        const emptied = runPlumb(['space', 'trash', '--empty', report.batchId!, '--apply'], {
          env,
        });
        assert.equal(emptied.status, 0, emptied.stderr);
        assertPrintable(emptied.stdout, 'space trash --empty');
        assert.deepEqual(readdirSync(path.join(trash, 'files')), []);
        assert.deepEqual(readdirSync(path.join(trash, 'info')), []);
        const kept = tree.groups.flat().filter((file) => existsSync(file));
        assert.equal(kept.length, tree.groups.length, 'the kept file of each group stays');
      } finally {
        volume.unmount();
      }
    });

    test('plumb read reads every file, whatever its name', () => {
      const volume = mountLoopFs('ext4', { sizeBytes: 256 * 1024 * 1024 });
      try {
        const tree = makeTree(path.join(volume.dir, 'tree'), seededRandom(seed + 2));
        const read = runPlumb(['read', tree.root, '--json', '-'], { env });
        assert.equal(read.status, 0, read.stderr);
        const document = JSON.parse(read.stdout) as { files: { bytes: number }[] };
        const files = tree.groups.flat();
        assert.equal(document.files.length, files.length, `seed ${seed + 2}`);
        const bytes = files.reduce((sum, file) => sum + readFileSync(file).length, 0);
        assert.equal(
          document.files.reduce((sum, f) => sum + f.bytes, 0),
          bytes,
        );
      } finally {
        volume.unmount();
      }
    });
  },
);
