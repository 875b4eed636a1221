/**
 * bin/plumb, the native front door, against `node bin/plumb.js` on the same trees: `space scan`
 * (run in the front door itself) must print the same bytes and exit with the same code; every
 * other command is handed to Node, so it prints exactly what Node prints.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { plumbBin, repoRoot } from '../helpers/cli.js';
import { plainCopy, randomFile } from '../helpers/space-files.js';

const frontBin = path.join(repoRoot, 'bin', process.platform === 'win32' ? 'plumb.exe' : 'plumb');
const notBuilt = existsSync(frontBin)
  ? undefined
  : `${frontBin} is not built (npm run build:native builds it)`;
if (notBuilt) console.log(`front-door tests skipped: ${notBuilt}`);
/** The terminal tests type into a pseudo-terminal made by util-linux script(1). */
const noScript =
  spawnSync('script', ['-qec', ':', '/dev/null']).status === 0
    ? false
    : 'script(1) from util-linux is not installed, so no terminal can be made';
if (noScript) console.log(`front-door terminal tests skipped: ${noScript}`);

const work = mkdtempSync(path.join(tmpdir(), 'plumb-front-door-'));
after(() => rmSync(work, { recursive: true, force: true }));
const stateDir = path.join(work, 'state');
const env = { ...process.env, PLUMB_STATE_DIR: stateDir };

interface Run {
  status: number | null;
  /** Bytes as latin1, so that every byte, valid UTF-8 or not, is compared. */
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Run {
  const result = spawnSync(command, args, {
    env: { ...env, ...extraEnv },
    timeout: 120_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  return {
    status: result.status,
    stdout: result.stdout.toString('latin1'),
    stderr: result.stderr.toString('latin1'),
  };
}

const front = (args: string[], extraEnv?: NodeJS.ProcessEnv) => run(frontBin, args, extraEnv);
const node = (args: string[], extraEnv?: NodeJS.ProcessEnv) =>
  run(process.execPath, [plumbBin, ...args], extraEnv);

/**
 * The JSON without what differs between any two runs: the scan's id, its timings, and the content
 * it read (the Node entry reuses its last scan's digests; the front door keeps no cache).
 */
function stableJson(text: string): string {
  return text
    .replace(/"scanId": "[0-9a-f-]+"/, '"scanId": "…"')
    .replace(/"contentRead": \{[^}]*\}/, '"contentRead": "…"')
    .replace(/"(seconds|walk|compare|hash|sharing)": [-+.e\d]+/g, '"$1": 0');
}

/** The text without the scan's duration ("in 0.3 s" on the first line). */
function stableText(text: string): string {
  return text.replace(/ in \d+\.\d s\n/, ' in … s\n');
}

function assertSameScan(args: string[], json: boolean): void {
  const a = front(args);
  const b = node(args);
  assert.equal(a.stderr, b.stderr, `stderr of ${args.join(' ')}`);
  assert.equal(a.status, b.status, `exit code of ${args.join(' ')}: ${a.stderr}`);
  const stable = json ? stableJson : stableText;
  assert.equal(stable(a.stdout), stable(b.stdout), `stdout of ${args.join(' ')}`);
}

/** Names that JSON and the terminal must both get right. */
const oddNames: (string | Buffer)[] = [
  'quote " and backslash \\ here',
  'tab\tnew\nline\rcarriage',
  'controls \x01\x08\x0c\x1b\x1f',
  'accents éàü and 日本語 and 😀',
  Buffer.from([0x62, 0x61, 0x64, 0xff, 0xfe, 0x2d, 0xc3, 0x28, 0x2d, 0xed, 0xa0, 0x80, 0x2d, 0xf0]),
  Buffer.from([0x6c, 0x6f, 0x6e, 0x65, 0x80, 0xe2, 0x82, 0x2e, 0x62, 0x69, 0x6e]),
];

/** A tree with duplicate groups of many kinds, odd names, times with fractions, and skips. */
function buildTree(root: string): void {
  // More than 20 groups, so the text ends with "… and N more groups".
  for (let i = 0; i < 24; i += 1) {
    const a = randomFile(path.join(root, `g${i}`, 'a.bin'), 1000 + i * 733);
    plainCopy(a, path.join(root, `g${i}`, 'copy', 'b.bin'));
    if (i % 3 === 0) plainCopy(a, path.join(root, `g${i}`, 'c.bin'));
    // Fractional milliseconds in the modification time (the change time has them anyway).
    utimesSync(a, 1_700_000_000.123456, 1_700_000_000 + i + 0.987654321);
  }
  // Odd names: each a copy of one content, and each with a copy of its own under the name + ".N".
  const oddDir = Buffer.from(path.join(root, 'odd') + path.sep);
  mkdirSync(oddDir, { recursive: true });
  const seed = readFileSync(randomFile(path.join(root, 'odd-seed.bin'), 5000));
  for (const [index, name] of oddNames.entries()) {
    const file = Buffer.concat([oddDir, Buffer.isBuffer(name) ? name : Buffer.from(name)]);
    writeFileSync(file, seed);
    const own = readFileSync(randomFile(path.join(root, `odd-content-${index}`), 2000 + index));
    writeFileSync(Buffer.concat([file, Buffer.from(`.${index}`)]), own);
  }
  // Hidden duplicates (--no-hidden), small ones (--min-size), empty files (never duplicates).
  const hidden = randomFile(path.join(root, '.hidden', 'h.bin'), 3000);
  plainCopy(hidden, path.join(root, 'visible-copy-of-hidden.bin'));
  plainCopy(hidden, path.join(root, '.dot-copy.bin'));
  const small = randomFile(path.join(root, 'small', 'tiny.bin'), 10);
  plainCopy(small, path.join(root, 'small', 'tiny-copy.bin'));
  writeFileSync(path.join(root, 'small', 'empty-1'), '');
  writeFileSync(path.join(root, 'small', 'empty-2'), '');
  // Packages and cloud folders (skipped unless --all, where the OS has them).
  const pkg = randomFile(path.join(root, 'Tool.app', 'Contents', 'x.bin'), 4000);
  plainCopy(pkg, path.join(root, 'Dropbox', 'x.bin'));
  plainCopy(pkg, path.join(root, 'Library', 'x.bin'));
  // A hard link (counted once), a symbolic link (skipped), a sparse file.
  linkSync(path.join(root, 'g1', 'a.bin'), path.join(root, 'g1', 'hard-link.bin'));
  symlinkSync(path.join(root, 'g2', 'a.bin'), path.join(root, 'g2', 'symlink.bin'));
  writeFileSync(path.join(root, 'sparse.img'), '');
  truncateSync(path.join(root, 'sparse.img'), 64 * 1024 * 1024);
}

describe('bin/plumb space scan prints what node bin/plumb.js prints', { skip: notBuilt }, () => {
  const tree = path.join(work, 'tree');
  before(() => buildTree(tree));

  test('--json: the same document, byte for byte, but for the id and timings', () => {
    assertSameScan(['space', 'scan', tree, '--json'], true);
    const a = front(['space', 'scan', tree, '--json']);
    assert.equal(a.status, 0, a.stderr);
    assert.ok(a.stdout.endsWith('}\n'), 'one line break after the document');
    const result = JSON.parse(Buffer.from(a.stdout, 'latin1').toString('utf8')) as {
      groups: { files: { path: string; mtimeMs: number }[] }[];
    };
    const files = result.groups.flatMap((g) => g.files);
    assert.ok(
      files.some((f) => f.path.includes('\uFFFD')),
      'invalid UTF-8 became U+FFFD',
    );
    assert.ok(
      files.some((f) => f.path.includes('"')),
      'a quote in a name',
    );
    assert.ok(
      files.some((f) => !Number.isInteger(f.mtimeMs)),
      'fractional times',
    );
  });

  test('text: the same summary, but for the duration', () => {
    assertSameScan(['space', 'scan', tree], false);
    const text = Buffer.from(front(['space', 'scan', tree]).stdout, 'latin1').toString('utf8');
    assert.match(text, /… and \d+ more groups \(--json lists all\)\n/);
  });

  test('--min-size, --no-hidden, --all, in their forms', () => {
    for (const flags of [
      ['--min-size', '2KB'],
      ['--min-size=1KiB'],
      ['--min-size', ' 1.5 kb '],
      ['--min-size', '0'],
      ['--no-hidden'],
      ['--all'],
      ['--all', '--no-hidden', '--min-size', '3000', '--json', '--json'],
    ]) {
      const json = flags.includes('--json');
      assertSameScan(['space', 'scan', tree, ...flags], json);
      assertSameScan(['space', 'scan', ...flags, '--', tree], json);
    }
  });

  test('an empty folder: no groups, [] in the JSON', () => {
    const empty = path.join(work, 'empty');
    mkdirSync(empty, { recursive: true });
    assertSameScan(['space', 'scan', empty, '--json'], true);
    assertSameScan(['space', 'scan', empty], false);
    assert.match(front(['space', 'scan', empty, '--json']).stdout, /"groups": \[\],/);
  });

  test('errors: the same message and exit code', () => {
    const file = randomFile(path.join(work, 'a-file'), 10);
    for (const args of [
      ['space', 'scan', path.join(work, 'missing')],
      ['space', 'scan', file],
      ['space', 'scan', tree, '--bogus'],
      ['space', 'scan', tree, '-x'],
      ['space', 'scan', tree, tree],
      ['space', 'scan'],
      ['space', 'scan', ''],
      ['space', 'scan', '   '],
      ['space', 'scan', tree, '--min-size', 'lots'],
      ['space', 'scan', tree, '--min-size'],
      ['space', 'scan', tree, '--min-size', '-5'],
      ['space', 'scan', tree, '--min-size', '99999999999TB'],
      ['space', 'scan', tree, '--json=yes'],
      ['space', 'scan', tree, '--apply'],
      ['space', 'scan', 'x'.repeat(5000)],
    ]) {
      const a = front(args);
      const b = node(args);
      assert.deepEqual(a, b, args.join(' ').slice(0, 80));
      assert.notEqual(a.status, 0);
    }
  });

  test('a terminal shows the progress line and clears it, as Node does', { skip: noScript }, () => {
    const pty = (command: string) =>
      spawnSync('script', ['-qec', command, '/dev/null'], { env, encoding: 'latin1' });
    const a = pty(`'${frontBin}' space scan '${tree}'`);
    const b = pty(`'${process.execPath}' '${plumbBin}' space scan '${tree}'`);
    assert.equal(a.status, 0, a.stdout);
    // Progress lines are timed, so they may differ in number; after the last clear, the summary.
    const clear = '\r\u001b[K';
    const summary = (text: string) =>
      stableText(text.slice(text.lastIndexOf(clear) + clear.length).replace(/\r\n/g, '\n'));
    assert.ok(a.stdout.includes(`${clear}walking: `), a.stdout);
    assert.ok(summary(a.stdout).startsWith('Scanned '), a.stdout);
    assert.equal(summary(a.stdout), summary(b.stdout));
  });
});

describe('bin/plumb hands everything else to Node', { skip: notBuilt }, () => {
  test('--version, --help, space --help, info, unknown commands: what Node prints', () => {
    for (const args of [
      ['--version'],
      ['-v'],
      ['--help'],
      [],
      ['space', '--help'],
      ['space'],
      ['space', 'scan', '--help'],
      ['space', 'scan', work, '-h'],
      ['info', work],
      ['frobnicate'],
    ]) {
      const a = front(args);
      const b = node(args);
      assert.deepEqual(a, b, args.join(' '));
    }
  });

  test('a dedupe journal left behind: Node recovers it first, then scans', () => {
    const tree = path.join(work, 'journal-tree');
    const a = randomFile(path.join(tree, 'a'), 5000);
    plainCopy(a, path.join(tree, 'b'));
    const journal = path.join(stateDir, 'space-journal');
    mkdirSync(journal, { recursive: true });
    const file = path.join(journal, 'interrupted.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ type: 'header', pid: 2 ** 22 + 12345, startedAt: new Date().toISOString() })}\n` +
        `${JSON.stringify({ type: 'begin', id: 1, entry: { kind: 'dedupe-range', target: path.join(tree, 'b'), keeper: a } })}\n`,
    );
    const scan = front(['space', 'scan', tree, '--json']);
    assert.equal(scan.status, 0, scan.stderr);
    assert.match(scan.stderr, /recovered an interrupted dedupe: .*b: unchanged/);
    assert.equal(existsSync(file), false, 'Node removed the journal it recovered');
    assert.equal((JSON.parse(scan.stdout) as { groups: unknown[] }).groups.length, 1);
  });

  test('without Node: one line saying how to get it', () => {
    const a = front(['--version'], { PLUMB_NODE: path.join(work, 'no-such-node') });
    assert.equal(a.status, 1);
    assert.equal(a.stdout, '');
    assert.match(a.stderr, /^plumb: cannot start Node\.js .*PLUMB_NODE.*\n$/);
  });
});

describe('bin/plumb: Ctrl-C cancels the scan as Node does', { skip: notBuilt }, () => {
  test('exit 1 with "The scan was cancelled."', { skip: noScript }, async () => {
    // Enough to hash for a while: large copies.
    const tree = path.join(work, 'cancel-tree');
    for (let i = 0; i < 3; i += 1) {
      const a = randomFile(path.join(tree, `a${i}`), 96 * 1024 * 1024);
      plainCopy(a, path.join(tree, `b${i}`));
    }
    const interrupted = async (command: string) => {
      // A terminal (script(1)) shows the progress line; Ctrl-C typed there interrupts the scan.
      // script runs the command through $SHELL -c. `exec` makes plumb the terminal's only
      // foreground process, as it is under an interactive shell: dash (CI's /bin/sh) would
      // otherwise wait for it, take the same SIGINT and re-raise it, and script would report 130.
      const child = spawn('script', ['-qec', `exec ${command}`, '/dev/null'], {
        env: { ...env, SHELL: '/bin/sh' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no progress: ${output}`)), 60_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString('latin1');
          if (/hashing: /.test(output)) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      child.stdin.write('\x03');
      const code = await exited;
      child.stdin.end();
      return { code, output };
    };
    const a = await interrupted(`'${frontBin}' space scan '${tree}'`);
    assert.equal(a.code, 1, a.output);
    assert.match(a.output, /plumb space: The scan was cancelled\.\r?\n$/);
    const b = await interrupted(`'${process.execPath}' '${plumbBin}' space scan '${tree}'`);
    assert.equal(b.code, 1, b.output);
    assert.match(b.output, /plumb space: The scan was cancelled\.\r?\n$/);
  });
});
