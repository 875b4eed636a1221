/**
 * `plumb read DIR` run by a user who may not read a subfolder or a file under DIR: it reads the
 * rest, leaves those out and names them, as a scan skips what it cannot read (issue 24: it
 * failed whole). Run as user nobody, so root's permissions do not read everything.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { plumbBin } from '../helpers/cli.js';
import { randomFile } from '../helpers/space-files.js';

let scratch: string;
before(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'plumb-read-unreadable-'));
  chmodSync(scratch, 0o755); // user nobody may reach the tree below
});
after(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('plumb read with a subfolder it may not read', () => {
  const runAs = spawnSync('runuser', ['-u', 'nobody', '--', 'true']).status === 0;
  test(
    'reads the rest, leaves the folder out and says so',
    { skip: runAs ? false : 'runuser -u nobody is not available (it needs root)' },
    () => {
      const tree = path.join(scratch, 'mixed');
      randomFile(path.join(tree, 'one.bin'), 2_000_000);
      randomFile(path.join(tree, 'open', 'two.bin'), 3_000_000);
      randomFile(path.join(tree, 'private', 'secret.bin'), 1_000_000);
      randomFile(path.join(tree, 'locked.bin'), 1_000_000);
      chmodSync(path.join(tree, 'private'), 0o700); // root's: user nobody may not list it
      chmodSync(path.join(tree, 'locked.bin'), 0o600);
      for (const dir of [tree, path.join(tree, 'open')]) chmodSync(dir, 0o755);
      for (const file of ['one.bin', 'open/two.bin']) chmodSync(path.join(tree, file), 0o644);
      const data = path.join(scratch, 'nobody-data');
      mkdirSync(data);
      const nobody = spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' });
      chownSync(data, Number(nobody.stdout.trim()), -1);
      const result = spawnSync(
        'runuser',
        ['-u', 'nobody', '--', process.execPath, plumbBin, 'read', tree, '--json', '-'],
        { encoding: 'utf8', env: { ...process.env, PLUMB_DATA_DIR: data }, timeout: 120_000 },
      );
      assert.equal(result.status, 0, result.stderr);
      const document = JSON.parse(result.stdout) as {
        files: { bytes: number }[];
        notices?: string[];
      };
      assert.deepEqual(
        document.files.map((f) => f.bytes),
        [2_000_000, 3_000_000],
        'one.bin, then open/two.bin',
      );
      const notice = document.notices?.find((n) => n.startsWith('Left out'));
      assert.equal(
        notice,
        `Left out 1 folder and 1 file that could not be read (no permission, or gone meanwhile): ${path.join(tree, 'private')}, ${path.join(tree, 'locked.bin')}.`,
      );
    },
  );
});
