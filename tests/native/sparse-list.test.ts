/**
 * Listing sparse files through the contract: progress tagged with the caller's listId (the walk,
 * then reading each map), a cancel that works in either phase, and clear refusals.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { SparseListProgress } from '../../app/contract/space.js';
import { createDispatcher, type CallContext } from '../../app/core/dispatch.js';
import { createHandlers } from '../../app/core/services.js';
import { testContext } from '../helpers/context.js';
import { holeFile } from '../helpers/space-files.js';
import { followSparseJob } from '../helpers/sparse-progress.js';

const dispatcher = createDispatcher(createHandlers(testContext(), 'web'));
const root = mkdtempSync(path.join(tmpdir(), 'plumb-sparse-list-'));
after(() => rmSync(root, { recursive: true, force: true }));
// As the UI does when the user submits the folder: listings run only inside chosen paths.
await dispatcher.call('session.choosePath', { path: root }, { emit: () => undefined });

const sparseFile = (file: string) => holeFile(file, 4 << 20);

/** Calls space.sparse.list, collecting its progress (checked against the contract's schema). */
const list = (folder: string, listId: string, onEvent?: (progress: SparseListProgress) => void) =>
  followSparseJob(dispatcher, 'space.sparse.list', { path: folder, listId }, onEvent);

const cancel = (listId: string) =>
  dispatcher.call('space.sparse.cancel', { listId }, { emit: () => undefined });

const holes = mkdtempSync(path.join(root, 'holes-'));
for (let i = 0; i < 40; i += 1) sparseFile(path.join(holes, `d${i % 4}`, `f${i}.img`));
writeFileSync(path.join(holes, 'dense'), Buffer.alloc(100_000, 1));
// Walked breadth first, each level a batch of its own: a listing of it runs for a while.
const deep = path.join(root, 'deep');
mkdirSync(path.join(deep, ...Array.from({ length: 1500 }, () => 'a')), { recursive: true });
sparseFile(path.join(deep, ...Array.from({ length: 1500 }, () => 'a'), 'bottom.img'));

test('progress: the walk, then each map read, all tagged with the listId', async () => {
  const { done, events } = list(holes, 'list-1');
  const files = (await done) as unknown[];
  assert.ok(events.length >= 2, `${events.length} progress events`);
  assert.ok(events.every((e) => e.listId === 'list-1'));
  const phases = events.map((e) => e.phase);
  assert.deepEqual(phases, [...phases].sort().reverse(), 'walk events come before describe ones');
  const last = events.at(-1)!;
  assert.equal(last.phase, 'describe');
  // Without holes on this file system nothing is sparse, and the last report says so.
  assert.equal(last.sparseFiles, files.length);
  assert.equal(last.described, files.length);
  assert.equal(last.files, 41);
  if (files.length > 0) assert.equal(files.length, 40);
  // A finished listing can no longer be cancelled.
  assert.deepEqual(await cancel('list-1'), { cancelled: false });
});

test('cancel while the maps are read: ECANCELED, and the listId is free again', async (t) => {
  const probe = (await list(holes, 'probe').done) as unknown[];
  if (probe.length === 0) {
    t.skip(`${tmpdir()} stores no holes, so there are no maps to read`);
    return;
  }
  let asked: Promise<unknown> | undefined;
  const { done } = list(holes, 'list-2', (progress) => {
    if (progress.phase === 'describe' && !asked) asked = cancel('list-2');
  });
  await assert.rejects(done, {
    code: 'ECANCELED',
    message: 'The sparse-file search was cancelled.',
  });
  assert.deepEqual(await asked, { cancelled: true });
  await list(holes, 'list-2').done;
});

test('cancel during the walk: 1,500 nested folders are listed one level at a time', async () => {
  // Breadth first, each level is a batch of its own: the walk cannot be over before the cancel,
  // sent on the first progress report, is seen at the next level.
  let asked: Promise<unknown> | undefined;
  const { done, events } = list(deep, 'list-3', () => {
    asked ??= cancel('list-3');
  });
  await assert.rejects(done, { code: 'ECANCELED' });
  // Stopped in the walk itself: the maps were never reached.
  assert.deepEqual(new Set(events.map((e) => e.phase)), new Set(['walk']));
  assert.deepEqual(await asked, { cancelled: true });
  // And it was the cancel that stopped it: the whole walk finds the file at the bottom.
  const whole = list(deep, 'list-4');
  await whole.done;
  assert.equal(whole.events.at(-1)!.files, 1);
});

test('a listId in use is refused; an unknown one cancels nothing; no listId, no events', async () => {
  // The second call is made once the first is seen running: two calls sent together may reach
  // the registry in either order (each first checks its path), and the one there first runs.
  let second: Promise<unknown> | undefined;
  const first = list(deep, 'same', () => {
    if (second) return;
    second = list(holes, 'same').done;
    second.catch(() => undefined); // judged below, once the first is done
  });
  await first.done;
  assert.ok(second, 'the first listing reported progress');
  await assert.rejects(second, {
    code: 'EINVAL',
    message: 'A job with that id is running; use a new id.',
  });
  assert.deepEqual(await cancel('no-such-listing'), { cancelled: false });
  const quiet: CallContext = { emit: () => assert.fail('no progress without a listId') };
  await dispatcher.call('space.sparse.list', { path: holes }, quiet);
  await assert.rejects(dispatcher.call('space.sparse.cancel', { listId: ' ' }, quiet), {
    code: 'EINVAL',
  });
});
