/**
 * `plumb space scan --json` prints text the addon writes from its own result (scanFolderJson), not
 * JSON.stringify of a JS object per file. On a tree with traps (names that are not UTF-8, quotes,
 * backslashes, control characters and emoji in names, hard links, a symbolic link, files equal at
 * both ends but not in the middle, times before 1970, far ahead and with fractions of a
 * millisecond), the text is exactly `JSON.stringify(scanFolder(...), null, 2)`, on a first scan and
 * on a rescan from the hash cache, but for the figures that differ between any two scans (times
 * spent, the scan id, and the content a rescan did not need to read). The app keeps a scan from
 * that text a group at a time (keepScanJson): read back page by page, it is the same scan.
 */
import assert from 'node:assert/strict';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { withRemovableTotal } from '../../app/common/removable.js';
import type { DuplicateGroup, SavedScan, ScanResult } from '../../app/contract/space.js';
import { keepScanJson, keptGroups } from '../../app/core/space/last-scan.js';
import { scanFolder, scanFolderJson } from '../../app/core/space/scan.js';
import { runPlumb } from '../helpers/cli.js';
import { baseSeed, seededRandom } from '../helpers/synthetic-samples.js';

const base = mkdtempSync(path.join(tmpdir(), 'plumb-scan-json-'));
after(() => rmSync(base, { recursive: true, force: true }));
const root = path.join(base, 'tree');

/** A path under the tree from the bytes of its name. */
function at(folder: string, name: Buffer | string): Buffer {
  return Buffer.concat([Buffer.from(`${path.join(root, folder)}/`), Buffer.from(name)]);
}

function buildTree(): void {
  const names: (Buffer | string)[] = [
    Buffer.from('caf\xe9 latin-1.raw', 'latin1'),
    Buffer.from([0xff, 0xfe, 0x2e, 0x62]),
    Buffer.from('\xed\xb3\xa9 an encoded surrogate', 'latin1'),
    Buffer.from('esc \x1b[31mred\x1b[0m \x01\x1f\x7f.raw'),
    'two\nlines\r\ttab\b\f.raw',
    'quote " and back\\slash',
    'été \u{1f4be} \u2028.raw',
  ];
  const small = randomBytes(3000);
  mkdirSync(path.join(root, 'odd'), { recursive: true });
  mkdirSync(path.join(root, 'copies'), { recursive: true });
  names.forEach((name, i) => writeFileSync(at(i % 2 ? 'odd' : 'copies', name), small));
  linkSync(at('copies', names[0]!), at('copies', 'a hard link'));
  symlinkSync(path.join(root, 'copies', 'x'), path.join(root, 'copies', 'a symlink'));
  // Equal at both ends (the edge digest), different in the middle: two groups, not one.
  const large = randomBytes(300_000);
  const other = Buffer.from(large);
  other[150_000] = other[150_000]! ^ 1;
  for (const [name, data] of [
    ['large-a', large],
    ['large-b', large],
    ['large-c', other],
    ['large-d', other],
  ] as const)
    writeFileSync(at('odd', name), data);
  // Times JSON.stringify writes in each of its forms.
  const times = [-1.123456789, 0.000001, 7258118400.5, 1e9 + 0.0001, 1234567890.987654];
  names.forEach((name, i) => {
    const time = times[i % times.length]!;
    utimesSync(at(i % 2 ? 'odd' : 'copies', name), time, time);
  });
  utimesSync(at('odd', 'large-a'), -86400.25, -86400.25);
}

/** The text with what differs between any two scans of the same tree blanked. */
function comparable(text: string, rescan = false): string {
  let out = text.replace(/^(\s*"(?:scanId|seconds|walk|compare|hash|sharing)": ).*$/gm, '$1…');
  if (rescan)
    out = out.replace(/("contentRead": \{\n\s*"files": )\d+(,\n\s*"bytes": )\d+/, '$1…$2…');
  return out;
}

test('space scan --json prints JSON.stringify of the scan, first scan and rescan alike', async () => {
  buildTree();
  const expected = await withDataDir(path.join(base, 'in-process'), () =>
    scanFolder({ path: root }),
  );
  assert.equal(expected.groups.length, 3, 'the odd names (a hard link kept once), two large pairs');
  const env = { PLUMB_DATA_DIR: path.join(base, 'cli'), PLUMB_STATE_DIR: path.join(base, 'cli') };
  const first = runPlumb(['space', 'scan', root, '--json'], { env });
  assert.equal(first.status, 0, first.stderr);
  assert.equal(comparable(first.stdout), comparable(`${JSON.stringify(expected, null, 2)}\n`));
  const rescan = runPlumb(['space', 'scan', root, '--json'], { env });
  assert.equal(rescan.status, 0, rescan.stderr);
  const reread = (JSON.parse(rescan.stdout) as ScanResult).contentRead;
  assert.deepEqual(reread, { files: 0, bytes: 0 }, 'the rescan read no content');
  assert.equal(comparable(rescan.stdout, true), comparable(first.stdout, true));
});

test('the text of thousands of groups, made in many pieces at once, is JSON.stringify of the scan', async () => {
  // Group counts and sizes drawn, so the pieces (about 1 MB of whole groups each, their share of
  // groups sized from the pieces before) fall differently in each run; some groups share a size
  // but not their content, and one group has thousands of files (a piece of its own).
  const seed = baseSeed();
  const random = seededRandom(seed);
  const draw = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const many = path.join(base, 'many');
  const groups = draw(2500, 4000);
  for (let g = 0; g <= groups; g += 1) {
    const copies = g === groups ? draw(1500, 3000) : draw(2, 5);
    const content = Buffer.alloc(draw(12, 400), `group ${g} `);
    for (let c = 0; c < copies; c += 1) {
      const folder = path.join(many, `d${(g * 7 + c) % 40}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, c === 1 ? `"${g}" é \\ ${c}` : `g${g}-${c}.bin`), content);
    }
  }
  const expected = await withDataDir(path.join(base, 'many-object'), () =>
    scanFolder({ path: many }),
  );
  assert.equal(expected.groups.length, groups + 1, `seed ${seed}`);
  const pieces = [
    ...(await withDataDir(path.join(base, 'many-text'), () => scanFolderJson({ path: many }))),
  ];
  assert.ok(pieces.length >= 4, `${pieces.length} pieces (seed ${seed})`);
  const text = Buffer.concat(pieces).toString('utf8');
  assert.equal(comparable(text), comparable(JSON.stringify(expected, null, 2)), `seed ${seed}`);
});

/** A result with what differs between two scans of the same tree left out. */
function stable(result: ScanResult) {
  const { scanId, seconds, stageSeconds, contentRead, ...rest } = result;
  void [scanId, seconds, stageSeconds, contentRead];
  return rest;
}

test('a scan kept from its JSON text, a group at a time, reads back as the scan', async () => {
  const empty = path.join(base, 'empty');
  mkdirSync(empty);
  for (const folder of [root, empty]) {
    const { expected, kept } = await withDataDir(path.join(base, 'kept'), async () => ({
      expected: await scanFolder({ path: folder }),
      kept: await keepScanJson(
        path.join(base, 'kept', 'space-scans'),
        await scanFolderJson({ path: folder }),
      ),
    }));
    assert.equal(kept.groupCount, expected.groups.length);
    const paged: DuplicateGroup[] = [];
    for (let start = 0; start < kept.groupCount; start += 1)
      paged.push(...(await keptGroups(kept, start, start + 1)));
    assert.deepEqual(
      stable({ ...kept.head, groups: paged }),
      stable(withRemovableTotal(expected)),
      `the kept scan of ${folder}, with the Trash total`,
    );
    // The kept file is still one saved scan, as any reader takes it whole.
    const whole = JSON.parse(readFileSync(kept.file, 'utf8')) as SavedScan;
    assert.equal(whole.savedAt, kept.savedAt);
    assert.deepEqual(stable(whole.result), stable({ ...kept.head, groups: paged }));
  }
});

async function withDataDir<T>(dir: string, run: () => Promise<T>): Promise<T> {
  const saved = process.env.PLUMB_DATA_DIR;
  process.env.PLUMB_DATA_DIR = dir;
  try {
    return await run();
  } finally {
    if (saved === undefined) delete process.env.PLUMB_DATA_DIR;
    else process.env.PLUMB_DATA_DIR = saved;
  }
}
