/**
 * SIGKILL at random instants during `plumb space trash --apply`, 200 times (PLUMB_CRASH_ROUNDS),
 * each on a small tree of its own: whatever the instant, the batch record lists every file the
 * run moved to the Trash, `--empty` then deletes exactly those (and their .trashinfo), every other
 * file is where it was with its content, and no .trashinfo without its file and no temporary
 * file of Plumb's state is left. The Trash is the XDG home trash, on the volume of the tree.
 * PLUMB_TEST_SEED replays the kill instants.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { EmptyTrashReport } from '../../app/contract/space.js';
import { newSeed, seededRandom } from '../../app/core/bench/seeded-random.js';
import { emptyTrashBatch } from '../../app/core/space/trash.js';
import { plumbBin, runPlumb } from '../helpers/cli.js';
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

/**
 * Runs the Trash apply and kills it: once it has printed `afterFiles` files done, a further
 * random 0-4 ms on (anywhere in the next file's compare, record, reservation or rename); with
 * `afterFiles` 0, at a random instant of its start and scan.
 */
function trashKilled(
  root: string,
  env: NodeJS.ProcessEnv,
  afterFiles: number,
  startSeconds: number,
): Promise<{ killed: boolean; printed: number }> {
  const child = spawn(process.execPath, [plumbBin, 'space', 'trash', root, '--apply'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let printed = 0;
  let armed = false;
  const arm = (ms: number) => {
    if (armed) return;
    armed = true;
    setTimeout(() => child.kill('SIGKILL'), ms);
  };
  if (afterFiles === 0) arm(random() * startSeconds * 1000);
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      if (/^(trashed|skip|FAILED) /.test(line)) printed += 1;
      if (afterFiles > 0 && printed >= afterFiles) arm(random() * 4);
    }
  });
  return new Promise((resolve) => {
    child.on('exit', (_code, signal) => resolve({ killed: signal === 'SIGKILL', printed }));
  });
}

function emptiedByCommand(batchId: string, env: NodeJS.ProcessEnv, where: string): string {
  const emptied = runPlumb(['space', 'trash', '--empty', batchId, '--apply', '--json'], { env });
  assert.equal(emptied.status, 0, `${where}: ${emptied.stderr}`);
  return emptied.stdout;
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
      const run = await trashKilled(root, env, afterFiles, startSeconds);
      tally.rounds += 1;
      if (run.killed) tally.killed += 1;

      const trash = path.join(env.XDG_DATA_HOME, 'Trash');
      const gone = [...digests.keys()].filter((file) => !existsSync(file));
      tally.movedBeforeKill += gone.length;
      const inTrash = listing(path.join(trash, 'files'));
      const where = `round ${round} (killed after ${run.printed} files printed)`;
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
        const report =
          round % 20 === 0
            ? (JSON.parse(emptiedByCommand(batchId, env, where)) as EmptyTrashReport)
            : await emptyTrashBatch(batchId, { apply: true, batchDir });
        const deleted = report.files.filter((f) => f.status === 'deleted').map((f) => f.original);
        assert.deepEqual(deleted.sort(), gone.sort(), `${where}: deleted exactly the moved files`);
      }
      assert.deepEqual(listing(path.join(trash, 'files')), [], `${where}: Trash files left`);
      assert.deepEqual(listing(path.join(trash, 'info')), [], `${where}: .trashinfo left`);
      for (const [file, digest] of digests) {
        if (gone.includes(file)) continue;
        assert.equal(sha256(file), digest, `${where}: ${file} changed`);
      }
      const temporaries = listing(batchDir).filter((name) => name.endsWith('.tmp'));
      assert.deepEqual(temporaries, [], `${where}: temporary state files left`);
      rmSync(base, { recursive: true, force: true });
    }
    console.log(
      `# ${tally.rounds} rounds, ${tally.killed} killed mid-run (${tally.killedMidMove} inside a file's move), ${tally.movedBeforeKill} files moved before the kills, all recorded and deleted by --empty; ${tally.orphanInfoAtKill} .trashinfo of moves cut short, removed`,
    );
    assert.ok(tally.killed >= rounds * 0.9, `only ${tally.killed} of ${rounds} runs were killed`);
  });
});
