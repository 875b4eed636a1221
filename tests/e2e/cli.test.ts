import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runPlumb } from '../helpers/cli.js';

test('plumb --help lists the commands and exits 0; no arguments is a usage error', () => {
  const help = runPlumb(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: plumb COMMAND/);
  assert.match(help.stdout, /^ {2}info +volume facts/m);
  assert.match(help.stdout, /^ {2}serve +the Plumb UI/m);
  assert.equal(runPlumb([]).status, 2);
});

test('plumb --version prints the package version', async () => {
  const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as {
    version: string;
  };
  const result = runPlumb(['--version']);
  assert.equal(result.status, 0);
  assert.equal(result.stdout.trim(), pkg.version);
});

test('plumb info DIR answers for a real folder, as text and JSON', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-cli-'));
  try {
    const text = runPlumb(['info', dir]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^File system +\S+/m);
    assert.match(text.stdout, /^Mount point +\//m);
    // The UI's words for the block uncached I/O needs, not the expert's "Direct I/O alignment".
    assert.match(text.stdout, /^Uncached I\/O block +(\d+ B|unknown)$/m);
    assert.doesNotMatch(text.stdout, /alignment/i);
    const json = runPlumb(['info', dir, '--json']);
    assert.equal(json.status, 0, json.stderr);
    const info = JSON.parse(json.stdout) as {
      totalBytes: number;
      freeBytes: number;
      blockSize: number;
      fsType: string;
    };
    const stats = statfsSync(dir);
    assert.equal(info.totalBytes, stats.blocks * stats.bsize);
    assert.ok(info.freeBytes > 0 && info.freeBytes <= info.totalBytes);
    assert.ok(info.blockSize >= 512);
    assert.ok(info.fsType.length > 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad input gets one clear line and the right exit code', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-cli-'));
  try {
    const file = path.join(dir, 'file.txt');
    writeFileSync(file, 'x');
    const cases: [string[], number, RegExp][] = [
      [
        ['info', path.join(dir, 'missing')],
        1,
        /^plumb info: No such folder: .*missing\. Check the path and try again\.\n$/,
      ],
      [['info', file], 1, /^plumb info: .*file\.txt is a file, not a folder\. Give a folder\.\n$/],
      [
        ['space', 'scan', path.join(dir, 'missing')],
        1,
        /^plumb space: No such folder: .*missing\. Check the path and try again\.\n$/,
      ],
      [
        ['space', 'scan', file],
        1,
        /^plumb space: .*file\.txt is a file, not a folder\. Give a folder\.\n$/,
      ],
      [['info'], 2, /^plumb info: Give one folder: plumb info DIR\n$/],
      [
        ['info', dir, '--frobnicate'],
        2,
        /^plumb info: Unknown option '--frobnicate'\. See `plumb info --help`\.\n$/,
      ],
      [
        ['nonsense'],
        2,
        /^plumb: unknown command "nonsense"\. Run `plumb --help` for the list\.\n$/,
      ],
      [
        ['serve', '--port', 'abc'],
        2,
        /^plumb serve: --port must be a whole number from 0 to 65535, not "abc"\.\n$/,
      ],
    ];
    for (const [args, status, message] of cases) {
      const result = runPlumb(args);
      assert.equal(result.status, status, args.join(' '));
      assert.match(result.stderr, message, args.join(' '));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
