/**
 * SIGKILL at random instants during `plumb space trash --apply`, 200 times (PLUMB_CRASH_ROUNDS),
 * each on a small tree of its own: whatever the instant, the batch record lists every file the
 * run moved to the Trash, `--empty` then deletes exactly those (and their .trashinfo), every other
 * file is where it was with its content, and no .trashinfo without its file and no temporary
 * file of Plumb's state is left. The Trash is the XDG home trash, on the volume of the tree.
 * PLUMB_TEST_SEED replays the kill instants.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { EmptyTrashReport } from '../../app/contract/space.js';
import { newSeed, seededRandom } from '../../app/core/bench/seeded-random.js';
import { emptyTrashBatch } from '../../app/core/space/trash.js';
import { settleInterrupted } from '../../app/core/space/trash-batch.js';
import { runPlumb } from '../helpers/cli.js';
import { killedAfter } from '../helpers/killed-after.js';
import { plainCopy, randomFile, sha256 } from '../helpers/space-files.js';

const rounds = Number(process.env.PLUMB_CRASH_ROUNDS ?? 200);
const seed = Number(process.env.PLUMB_TEST_SEED ?? newSeed());
console.log(`# seed ${seed} (replay with PLUMB_TEST_SEED=${seed})`);
const random = seededRandom(seed);

const groups = 3;
const copiesPerGroup = 3;

let scratch: string;
before(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'plumb-trash-crash-'));
});
after(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** Three groups of three identical files (small, of random content): six copies to move. */
function makeTree(root: string): Map<string, string> {
  const digests = new Map<string, string>();
  for (let g = 0; g < groups; g += 1) {
    const first = randomFile(
      path.join(root, `g${g}`, 'copy-0.bin'),
      2000 + Math.floor(random() * 30_000),
    );
    for (let c = 1; c < copiesPerGroup; c += 1) {
      plainCopy(first, path.join(root, `g${g}`, `copy-${c}.bin`));
    }
    for (let c = 0; c < copiesPerGroup; c += 1) {
      const file = path.join(root, `g${g}`, `copy-${c}.bin`);
      digests.set(file, sha256(file));
    }
  }
  return digests;
}

function listing(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** `--empty` by the command; null when it says nothing is recorded under that id (and `may`). */
function emptiedByCommand(
  batchId: string,
  env: NodeJS.ProcessEnv,
  where: string,
  mayBeUnrecorded: boolean,
): EmptyTrashReport | null {
  const emptied = runPlumb(['space', 'trash', '--empty', batchId, '--apply', '--json'], { env });
  if (mayBeUnrecorded && /No files moved to the Trash by Plumb are recorded/.test(emptied.stderr))
    return null;
  assert.equal(emptied.status, 0, `${where}: ${emptied.stderr}`);
  return JSON.parse(emptied.stdout) as EmptyTrashReport;
}

describe('SIGKILL during space trash --apply', () => {
  test(`${rounds} kills: the batch record holds exactly the files moved`, async () => {
    // How long a whole run takes here, so kills in its start land anywhere in it.
    const probe = path.join(scratch, 'probe');
    makeTree(probe);
    const probeEnv = {
      XDG_DATA_HOME: path.join(scratch, 'probe-xdg'),
      PLUMB_STATE_DIR: path.join(scratch, 'probe-state'),
      PLUMB_DATA_DIR: path.join(scratch, 'probe-data'),
    };
    const started = performance.now();
    const whole = runPlumb(['space', 'trash', probe, '--apply'], { env: probeEnv });
    const startSeconds = (performance.now() - started) / 1000;
    assert.equal(whole.status, 0, whole.stderr);

    const copies = groups * (copiesPerGroup - 1);
    const tally = {
      rounds: 0,
      killed: 0,
      movedBeforeKill: 0,
      killedMidMove: 0,
      orphanInfoAtKill: 0,
    };
    for (let round = 0; round < rounds; round += 1) {
      const base = path.join(scratch, `round-${round}`);
      const root = path.join(base, 'tree');
      const env = {
        XDG_DATA_HOME: path.join(base, 'xdg'),
        PLUMB_STATE_DIR: path.join(base, 'state'),
        PLUMB_DATA_DIR: path.join(base, 'data'),
      };
      mkdirSync(base);
      const digests = makeTree(root);
      const afterFiles = Math.floor(random() * copies);
      // Once it has printed `afterFiles` files done, 0-4 ms on (anywhere in the next file's
      // compare, record, reservation or rename); with 0, anywhere in its start and scan.
      const run = await killedAfter(['space', 'trash', root, '--apply'], {
        env,
        done: /^(trashed|skip|FAILED) /,
        afterLines: afterFiles,
        delayMs: () => random() * 4,
        startDelayMs: () => random() * startSeconds * 1000,
      });
      tally.rounds += 1;
      if (run.killed) tally.killed += 1;

      const trash = path.join(env.XDG_DATA_HOME, 'Trash');
      const gone = [...digests.keys()].filter((file) => !existsSync(file));
      tally.movedBeforeKill += gone.length;
      const inTrash = listing(path.join(trash, 'files'));
      const where = `round ${round} (killed after ${run.linesDone} files printed)`;
      assert.equal(inTrash.length, gone.length, `${where}: every file gone is in the Trash`);

      const batchDir = path.join(env.PLUMB_STATE_DIR, 'space-trash');
      const batches = listing(batchDir).filter((name) => /^[\w-]+\.jsonl?$/.test(name));
      if (gone.length === 0) {
        assert.ok(batches.length <= 1, `${where}: ${batches.join(', ')}`);
      } else {
        assert.equal(batches.length, 1, `${where}: one batch record`);
      }
      const batchId = batches[0]?.replace(/\.jsonl?$/, '');
      if (batchId) {
        const record = readFileSync(path.join(batchDir, batches[0]!), 'utf8');
        const count = (key: string) => record.split(`{"${key}":`).length - 1;
        if (count('intent') > count('moved') + count('abandoned')) tally.killedMidMove += 1;
        const infos = listing(path.join(trash, 'info')).length;
        if (infos > inTrash.length) tally.orphanInfoAtKill += infos - inTrash.length;
        // The record, as a user finds it: --empty settles it and deletes exactly its files (the
        // command now and then; the same function in this process otherwise, to save time).
        // A record killed before its first file went is settled by removing it: --empty then
        // says no files are recorded under that id, and nothing is deleted.
        const nothingMoved = (error: unknown) =>
          gone.length === 0 && (error as { code?: string }).code === 'ENOBATCH';
        const report =
          round % 20 === 0
            ? emptiedByCommand(batchId, env, where, gone.length === 0)
            : await emptyTrashBatch(batchId, { apply: true, batchDir }).catch((error: unknown) => {
                if (nothingMoved(error)) return null;
                throw error;
              });
        const deleted = (report?.files ?? [])
          .filter((f) => f.status === 'deleted')
          .map((f) => f.original);
        assert.deepEqual(deleted.sort(), gone.sort(), `${where}: deleted exactly the moved files`);
        if (gone.length === 0)
          assert.deepEqual(
            listing(batchDir).filter((n) => n.startsWith(batchId)),
            [],
            `${where}: the empty record removed`,
          );
      }
      assert.deepEqual(listing(path.join(trash, 'files')), [], `${where}: Trash files left`);
      assert.deepEqual(listing(path.join(trash, 'info')), [], `${where}: .trashinfo left`);
      for (const [file, digest] of digests) {
        if (gone.includes(file)) continue;
        assert.equal(sha256(file), digest, `${where}: ${file} changed`);
      }
      // Killed before its record was renamed into place (nothing had moved): the temporary is
      // what the next Trash run settles first, as it does here.
      if (!batchId) await settleInterrupted(batchDir);
      const temporaries = listing(batchDir).filter((name) => name.endsWith('.tmp'));
      assert.deepEqual(temporaries, [], `${where}: temporary state files left`);
      rmSync(base, { recursive: true, force: true });
    }
    console.log(
      `# ${tally.rounds} rounds, ${tally.killed} killed mid-run (${tally.killedMidMove} inside a file's move), ${tally.movedBeforeKill} files moved before the kills, all recorded and deleted by --empty; ${tally.orphanInfoAtKill} .trashinfo of moves cut short, removed`,
    );
    // A kill armed after the last file's line (1 round in 6) may come after the run has ended;
    // the others land inside it. Measured: 179-193 of 200 killed, 68-80 inside a move (on
    // 2026-12-03's slower machine 190-192 killed, 32-72 inside a move); the bounds fail only if
    // kills stop landing.
    assert.ok(tally.killed >= rounds * 0.8, `only ${tally.killed} of ${rounds} runs were killed`);
    assert.ok(
      tally.killedMidMove >= rounds * 0.1,
      `only ${tally.killedMidMove} of ${rounds} runs were killed inside a file's move`,
    );
  });
});
