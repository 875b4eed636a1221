/**
 * What Plumb keeps about the user's files (results, kept scans and their digests, Trash batches)
 * is the user's alone: its data and state folders are 0700 and their files 0600 whatever the
 * umask, and folders an earlier version made as the umask said are made private (issue 24).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { childEnv, plumbBin } from '../helpers/cli.js';
import { plainCopy, randomFile } from '../helpers/space-files.js';

let scratch: string;
before(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'plumb-private-'));
  chmodSync(scratch, 0o755); // others may reach the folders below, as in a home folder
});
after(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** `plumb ARGS` under umask 022 (group and others may read what is made), as a user's shell. */
function plumbWithUmask(args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(
    'sh',
    ['-c', 'umask 022 && exec "$0" "$@"', process.execPath, plumbBin, ...args],
    { encoding: 'utf8', env: childEnv(env), timeout: 120_000 },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every folder and file under `dir` (and it) with a mode other than 0700 / 0600. */
function notPrivate(dir: string): string[] {
  const wrong: string[] = [];
  const visit = (at: string) => {
    const info = statSync(at);
    const mode = info.mode & 0o777;
    if (info.isDirectory()) {
      if (mode !== 0o700) wrong.push(`${at} ${mode.toString(8)}`);
      for (const name of readdirSync(at)) visit(path.join(at, name));
    } else if (mode !== 0o600) wrong.push(`${at} ${mode.toString(8)}`);
  };
  visit(dir);
  return wrong;
}

describe('Plumb’s data and state folders are private', () => {
  test('results, kept scan digests and Trash batches: 0700 folders, 0600 files', () => {
    const data = path.join(scratch, 'data');
    const state = path.join(scratch, 'state');
    // Made by an earlier version, as the umask said.
    mkdirSync(path.join(data, 'results'), { recursive: true, mode: 0o755 });
    chmodSync(data, 0o755);
    const tree = path.join(scratch, 'photos');
    const original = randomFile(path.join(tree, 'a.raw'), 300_000);
    plainCopy(original, path.join(tree, 'b.raw'));
    const env = {
      PLUMB_DATA_DIR: data,
      PLUMB_STATE_DIR: state,
      XDG_DATA_HOME: path.join(scratch, 'xdg'),
    };
    for (const args of [
      ['read', tree],
      ['space', 'scan', tree],
      ['space', 'trash', tree, '--apply'],
    ]) {
      const result = plumbWithUmask(args, env);
      assert.equal(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
    }
    assert.ok(readdirSync(path.join(data, 'results')).length > 0, 'a result was saved');
    assert.ok(readdirSync(path.join(data, 'space-scans')).length > 0, 'the scan kept digests');
    assert.ok(readdirSync(path.join(state, 'space-trash')).length > 0, 'a batch was recorded');
    assert.deepEqual(notPrivate(data), []);
    assert.deepEqual(notPrivate(state), []);
  });
});
