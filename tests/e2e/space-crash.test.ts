/**
 * SIGKILL during `plumb space dedupe --apply`, at points spread over the whole apply, many
 * times: after the next start's recovery every file has its content and metadata, and no
 * temporary clone or journal is left.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runPlumb } from '../helpers/cli.js';
import { killedAfter } from '../helpers/killed-after.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { plainCopy, randomFile, setXattr, snapshotTree } from '../helpers/space-files.js';

const rounds = Number(process.env.PLUMB_CRASH_ROUNDS ?? 12);
const groups = 24;
const copiesPerGroup = 2;

function makeTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
  for (let g = 0; g < groups; g += 1) {
    const original = randomFile(path.join(root, `g${g}`, 'original.bin'), 150_000 + g * 4096);
    chmodSync(plainCopy(original, path.join(root, `g${g}`, 'copy.bin')), 0o640);
    setXattr(
      plainCopy(original, path.join(root, 'elsewhere', `g${g}.bin`)),
      'user.origin',
      `group ${g}`,
    );
  }
}

function journals(stateDir: string): string[] {
  const dir = path.join(stateDir, 'space-journal');
  return existsSync(dir) ? readdirSync(dir) : [];
}

function leftovers(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => path.basename(name).startsWith('.plumb-clone-'));
}

/**
 * Runs the dedupe and kills it with SIGKILL once it has reported `afterFiles` files done (it prints
 * each as it finishes), after a further random 0-3 ms so the kill lands anywhere in the next file.
 */
function dedupeKilledAfter(root: string, method: string, stateDir: string, afterFiles: number) {
  return killedAfter(['space', 'dedupe', root, '--apply', '--method', method], {
    env: { PLUMB_STATE_DIR: stateDir },
    done: /^(cloned|skip|FAILED) /,
    afterLines: afterFiles,
    delayMs: () => Math.random() * 3,
  });
}

describe(
  'SIGKILL during dedupe never loses or corrupts a file',
  { skip: loopSkipReason('xfs') },
  () => {
    let fs: MountedFs;
    let stateDir: string;
    before(() => {
      fs = mountLoopFs('xfs', { sizeBytes: 320 * 1024 * 1024, mkfsArgs: ['-m', 'reflink=1'] });
      stateDir = mkdtempSync(path.join(tmpdir(), 'plumb-crash-state-'));
    });
    after(() => {
      fs.unmount();
      rmSync(stateDir, { recursive: true, force: true });
    });

    for (const method of ['clone-rename', 'dedupe-range']) {
      test(`${method}: ${rounds} kills spread over the apply`, async () => {
        const root = path.join(fs.dir, method);
        const total = groups * copiesPerGroup;
        let interrupted = 0;
        for (let round = 0; round < rounds; round += 1) {
          makeTree(root);
          const expected = snapshotTree(root);
          const afterFiles = Math.floor(((round + Math.random()) / rounds) * total);
          const run = await dedupeKilledAfter(root, method, stateDir, afterFiles);
          // The next start: every plumb space command recovers interrupted work first.
          const next = runPlumb(['space', 'scan', root, '--json'], {
            env: { PLUMB_STATE_DIR: stateDir },
          });
          assert.equal(next.status, 0, next.stderr);
          assert.deepEqual(
            snapshotTree(root),
            expected,
            `round ${round}, killed after ${run.linesDone} files`,
          );
          assert.deepEqual(leftovers(root), [], `round ${round}: temporary clones left`);
          assert.deepEqual(journals(stateDir), [], `round ${round}: journal left`);
          if (run.killed && run.linesDone < total) interrupted += 1;
        }
        console.log(
          `${method}: ${interrupted} of ${rounds} runs were killed in the middle of the apply`,
        );
        assert.ok(interrupted >= rounds / 2, 'most kills should land during the apply');
      });
    }
  },
);
