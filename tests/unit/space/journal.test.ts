/**
 * Recovery of an interrupted clone-rename from every state the guarded swap can stop in: the
 * original is found by its inode wherever it is and nothing written to either file is lost.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import {
  recoverInterrupted,
  swapPathFor,
  tempPathFor,
  volumeLockName,
  type JournalEntry,
} from '../../../app/core/space/journal.js';

const work = mkdtempSync(path.join(tmpdir(), 'plumb-journal-'));
after(() => rmSync(work, { recursive: true, force: true }));
/** A process id that is certainly not running: a child that has exited. */
const deadPid = spawnSync('true').pid!;

/** A folder with `b` (the original) and its clone at the temporary name, as at stage ready. */
function prepare(name: string) {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, 'b');
  const content = randomBytes(10_000);
  writeFileSync(target, content);
  utimesSync(target, new Date('2021-01-01'), new Date('2021-02-03'));
  const temp = tempPathFor(target);
  writeFileSync(temp, content);
  utimesSync(temp, new Date('2021-01-01'), new Date('2021-02-03'));
  utimesSync(dir, new Date('2019-01-01'), new Date('2019-06-01'));
  const s = statSync(target, { bigint: true });
  const d = statSync(dir, { bigint: true });
  const entry: JournalEntry = {
    kind: 'clone-rename',
    target,
    keeper: path.join(dir, 'a'),
    temp,
    swap: swapPathFor(temp),
    ino: s.ino.toString(),
    size: Number(s.size),
    mtimeNs: s.mtimeNs.toString(),
    parent: { path: dir, atimeNs: d.atimeNs.toString(), mtimeNs: d.mtimeNs.toString() },
  };
  return {
    dir,
    target,
    temp,
    swap: swapPathFor(temp),
    content,
    ino: s.ino,
    folderMtime: d.mtimeNs,
    entry,
  };
}

function writeJournal(journalDir: string, entry: JournalEntry, stage: string): void {
  mkdirSync(journalDir, { recursive: true });
  const lines = [
    { type: 'header', pid: deadPid, startedAt: new Date().toISOString() },
    { type: 'begin', id: 1, entry },
    { type: 'stage', id: 1, stage },
  ];
  writeFileSync(
    path.join(journalDir, `${deadPid}-x.jsonl`),
    lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
  );
}

async function recover(name: string, entry: JournalEntry, stage: string) {
  const journalDir = path.join(work, `${name}-journal`);
  writeJournal(journalDir, entry, stage);
  const steps = await recoverInterrupted(journalDir);
  assert.deepEqual(readdirSync(journalDir), []);
  return steps;
}

test('killed after the swap: the original goes back over its unused clone', async () => {
  const f = prepare('swapped');
  const entry = f.entry;
  // The exchange: the original now at the temporary name, the clone at the target.
  renameSync(f.target, f.swap);
  renameSync(f.temp, f.target);
  renameSync(f.swap, f.temp);
  const [step] = await recover('swapped', entry, 'ready');
  assert.equal(step!.outcome, 'rolled-back');
  assert.equal(statSync(f.target, { bigint: true }).ino, f.ino);
  assert.deepEqual(readFileSync(f.target), f.content);
  assert.deepEqual(readdirSync(f.dir), ['b']);
  assert.equal(statSync(f.dir, { bigint: true }).mtimeNs, f.folderMtime);
});

test('killed after the swap, then the target written to: the clone and the write stay', async () => {
  const f = prepare('written');
  const entry = f.entry;
  renameSync(f.target, f.swap);
  renameSync(f.temp, f.target);
  renameSync(f.swap, f.temp);
  appendFileSync(f.target, 'more');
  const [step] = await recover('written', entry, 'ready');
  assert.equal(step!.outcome, 'completed');
  assert.deepEqual(readFileSync(f.target), Buffer.concat([f.content, Buffer.from('more')]));
  assert.deepEqual(readdirSync(f.dir), ['b']);
});

test('both written after the swap: both kept, the original under a visible name', async () => {
  const f = prepare('both');
  const entry = f.entry;
  renameSync(f.target, f.swap);
  renameSync(f.temp, f.target);
  renameSync(f.swap, f.temp);
  appendFileSync(f.target, 'to the clone');
  appendFileSync(f.temp, 'to the original');
  const [step] = await recover('both', entry, 'ready');
  assert.match(step!.detail, /kept as .*b\.plumb-kept/);
  assert.deepEqual(readdirSync(f.dir).sort(), ['b', 'b.plumb-kept']);
  assert.match(readFileSync(path.join(f.dir, 'b.plumb-kept'), 'utf8'), /to the original$/);
  assert.match(readFileSync(f.target, 'utf8'), /to the clone$/);
});

test('killed between the renames of a swap without exchange (Windows): original restored', async () => {
  const f = prepare('midswap');
  const entry = f.entry;
  renameSync(f.target, f.swap); // the original parked, the target name free for a moment
  const [step] = await recover('midswap', entry, 'ready');
  assert.equal(step!.outcome, 'rolled-back');
  assert.equal(statSync(f.target, { bigint: true }).ino, f.ino);
  assert.deepEqual(readdirSync(f.dir), ['b']);
});

test('killed before the swap: the clone goes; after the removal: the clone stays', async () => {
  const before = prepare('before');
  const [rolled] = await recover('before', before.entry, 'ready');
  assert.equal(rolled!.outcome, 'rolled-back');
  assert.equal(statSync(before.target, { bigint: true }).ino, before.ino);
  assert.deepEqual(readdirSync(before.dir), ['b']);

  const done = prepare('done');
  const entry = done.entry;
  renameSync(done.temp, done.target); // the clone in place, the original removed
  const [completed] = await recover('done', entry, 'replaced');
  assert.equal(completed!.outcome, 'completed');
  assert.deepEqual(readFileSync(done.target), done.content);
  assert.equal(statSync(done.dir, { bigint: true }).mtimeNs, done.folderMtime);
});

test('a volume lock left by a process that is gone is removed; a live one stays', async () => {
  const journalDir = path.join(work, 'locks');
  mkdirSync(journalDir, { recursive: true });
  writeFileSync(path.join(journalDir, volumeLockName(7)), String(deadPid));
  writeFileSync(path.join(journalDir, `${volumeLockName(8)}-${deadPid}-1`), String(deadPid));
  writeFileSync(path.join(journalDir, volumeLockName(9)), String(process.ppid));
  await recoverInterrupted(journalDir);
  assert.deepEqual(readdirSync(journalDir), [volumeLockName(9)]);
  assert.equal(existsSync(path.join(journalDir, volumeLockName(7))), false);
});
