/**
 * A reader that goes away (`| head -1`) must not stop the work (issue 24): `bench` still saves
 * its result and removes its test files, `space dedupe --apply` still clones every copy and
 * removes its journal and volume lock; the exit code is then 1, as the README says, because
 * output was lost.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ResultDocument } from '../../app/contract/bench-result.js';
import { scanFolder } from '../../app/core/space/scan.js';
import { childEnv, plumbBin } from '../helpers/cli.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { plainCopy, randomFile, sha256 } from '../helpers/space-files.js';

interface Piped {
  /** plumb's own exit code (PIPESTATUS[0]), not head's. */
  status: number;
  /** What `head -1` let through. */
  stdout: string;
  stderr: string;
}

/**
 * `plumb ARGS [2>&1] | READER` in bash, as a user types it. `head -n 0` has gone before plumb
 * writes anything; `head -1` goes after the first line.
 */
function plumbInto(
  reader: 'head -1' | 'head -n 0',
  args: string[],
  env: NodeJS.ProcessEnv,
  both = false,
): Piped {
  const script = `"$@" ${both ? '2>&1' : ''} | ${reader}; echo "plumb exit \${PIPESTATUS[0]}" >&2`;
  const run = spawnSync('bash', ['-c', script, 'bash', process.execPath, plumbBin, ...args], {
    encoding: 'utf8',
    env: childEnv(env),
    timeout: 300_000,
  });
  const status = /plumb exit (\d+)\s*$/.exec(run.stderr);
  assert.ok(status, `no exit code: ${run.stderr}`);
  return {
    status: Number(status[1]),
    stdout: run.stdout,
    stderr: run.stderr.slice(0, status.index),
  };
}

describe('a closed standard output does not stop the work', () => {
  let work: string;
  let env: NodeJS.ProcessEnv;
  before(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'plumb-pipes-'));
    env = { PLUMB_DATA_DIR: path.join(work, 'data'), PLUMB_STATE_DIR: path.join(work, 'state') };
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  for (const both of [false, true]) {
    // Its summary is printed at the end, in a few writes a pipe holds: a reader that reads one
    // line may still be there to take them all, so the one that is gone is the stdout case.
    const reader = both ? 'head -1' : 'head -n 0';
    const shown = `bench ${both ? '2>&1 ' : ''}| ${reader}`;
    it(`${shown}: the result is saved, the test files go, the exit code is 1`, () => {
      const target = path.join(work, both ? 'target-both' : 'target-stdout');
      mkdirSync(target);
      const resultsDir = path.join(work, 'data', 'results');
      const before = existsSync(resultsDir) ? readdirSync(resultsDir) : [];
      const run = plumbInto(
        reader,
        ['bench', target, '--plan', 'series', '--scale', '0.01', '--reserve', '0'],
        env,
        both,
      );
      assert.equal(run.stdout.split('\n').length, both ? 2 : 1, 'what head printed');
      const saved = readdirSync(resultsDir).filter((name) => !before.includes(name));
      assert.equal(saved.length, 1, `one result saved: ${saved.join(', ')}`);
      const document = JSON.parse(
        readFileSync(path.join(resultsDir, saved[0]!), 'utf8'),
      ) as ResultDocument;
      assert.equal(document.files.length, 84, 'the whole series was run');
      assert.deepEqual(readdirSync(target), [], 'the test files were removed');
      assert.equal(run.status, 1, `exit code; stderr: ${run.stderr}`);
      if (!both) {
        assert.match(run.stderr, /plumb: the output was cut off .*; the work itself was done\.\n$/);
      }
    });
  }

  describe('space dedupe --apply | head -1', { skip: loopSkipReason('xfs') }, () => {
    let fs: MountedFs;
    before(() => {
      fs = mountLoopFs('xfs', { sizeBytes: 320 * 1024 * 1024, mkfsArgs: ['-m', 'reflink=1'] });
    });
    after(() => fs.unmount());

    it('clones every copy, removes its journal and lock, and exits 1', async () => {
      const root = path.join(fs.dir, 'tree');
      const copies = 40;
      const sums = new Map<string, string>();
      for (let g = 0; g < 4; g += 1) {
        const original = randomFile(path.join(root, `g${g}`, 'original.bin'), 256 * 1024);
        for (let c = 0; c < copies / 4; c += 1) {
          const copy = plainCopy(original, path.join(root, `g${g}`, `copy-${c}.bin`));
          sums.set(copy, sha256(copy));
        }
        sums.set(original, sha256(original));
      }
      const run = plumbInto('head -1', ['space', 'dedupe', root, '--apply'], env);
      assert.match(run.stdout, /^cloned +\S+/);
      const rescan = await scanFolder({ path: root });
      assert.equal(rescan.totals.reclaimableBytes, 0, 'every copy now shares its storage');
      for (const [file, sum] of sums) assert.equal(sha256(file), sum, `${file} kept its content`);
      const journalDir = path.join(work, 'state', 'space-journal');
      assert.deepEqual(
        existsSync(journalDir) ? readdirSync(journalDir) : [],
        [],
        'no journal or lock',
      );
      assert.equal(run.status, 1, `exit code; stderr: ${run.stderr}`);
    });
  });
});
