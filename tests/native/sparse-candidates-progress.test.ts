/**
 * Looking for sparse candidates through the contract, as the app does: progress tagged with the
 * caller's listId (the walk, then reading each large file for zeros), and a cancel with
 * space.sparse.cancel that stops the walk itself, or the reading between two chunks of a file.
 */
import assert from 'node:assert/strict';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { SparseListProgress } from '../../app/contract/space.js';
import { followSparseJob } from '../helpers/sparse-progress.js';
import { createDispatcher, type CallContext } from '../../app/core/dispatch.js';
import { createHandlers } from '../../app/core/services.js';
import { testContext } from '../helpers/context.js';

const MiB = 1024 * 1024;
const dispatcher = createDispatcher(createHandlers(testContext(), 'web'));
const root = mkdtempSync(path.join(tmpdir(), 'plumb-sparse-candidates-progress-'));
after(() => rmSync(root, { recursive: true, force: true }));
await dispatcher.call('session.choosePath', { path: root }, { emit: () => undefined });

/** A file of written (allocated) zeros: every MiB of it is a candidate's run. */
function zeros(file: string, mib: number): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, 'w');
  for (let i = 0; i < mib; i += 1) writeSync(fd, Buffer.alloc(MiB));
  closeSync(fd);
  return file;
}

interface Found {
  candidates: { path: string; zeroBytes: number }[];
}

/** space.sparse.candidates with a listId, its progress checked against the contract's schema. */
function look(
  folder: string,
  listId: string,
  onEvent?: (progress: SparseListProgress) => void,
): { done: Promise<Found>; events: SparseListProgress[] } {
  const input = { path: folder, minBytes: 2 * MiB, listId };
  const job = followSparseJob(dispatcher, 'space.sparse.candidates', input, onEvent);
  return { done: job.done as Promise<Found>, events: job.events };
}

const cancel = (listId: string) =>
  dispatcher.call('space.sparse.cancel', { listId }, { emit: () => undefined });

const images = path.join(root, 'images');
const imageCount = 12;
for (let i = 0; i < imageCount; i += 1) zeros(path.join(images, `d${i % 3}`, `vm${i}.img`), 4);

test('progress: the walk, then each large file read, all tagged with the listId', async () => {
  const { done, events } = look(images, 'look-1');
  const found = await done;
  assert.equal(found.candidates.length, imageCount);
  assert.ok(found.candidates.every((c) => c.zeroBytes === 4 * MiB));
  assert.ok(events.every((e) => e.listId === 'look-1'));
  const phases = events.map((e) => e.phase);
  assert.equal(phases[0], 'walk');
  assert.deepEqual(new Set(phases), new Set(['walk', 'read']));
  assert.ok(phases.lastIndexOf('walk') < phases.indexOf('read'), 'the walk comes first');
  const last = events.at(-1)!;
  assert.deepEqual(
    [last.phase, last.sparseFiles, last.described],
    ['read', imageCount, imageCount],
  );
  assert.equal(last.files, imageCount);
  assert.equal(last.secondsLeft, 0);
  assert.deepEqual(await cancel('look-1'), { cancelled: false }, 'a finished search');
});

test('cancel while the large files are read: ECANCELED before the last is read', async () => {
  let asked: Promise<unknown> | undefined;
  const { done, events } = look(images, 'look-2', (progress) => {
    if (progress.phase === 'read' && !asked) asked = cancel('look-2');
  });
  await assert.rejects(done, {
    code: 'ECANCELED',
    message: 'The sparse-file search was cancelled.',
  });
  assert.deepEqual(await asked, { cancelled: true });
  const read = Math.max(...events.filter((e) => e.phase === 'read').map((e) => e.described));
  assert.ok(read < imageCount, `stopped after ${read} of ${imageCount} files`);
  // The listId is free again, and the whole search finds every file.
  assert.equal((await look(images, 'look-2').done).candidates.length, imageCount);
});

test('cancel during the walk: 1,500 nested folders, stopped before any file is read', async () => {
  // Breadth first, each level is a batch of its own: the walk cannot be over before the cancel,
  // sent on the first progress report, is seen at the next level.
  const deep = path.join(root, 'deep', ...Array.from({ length: 1500 }, () => 'a'));
  zeros(path.join(deep, 'bottom.img'), 3);
  let asked: Promise<unknown> | undefined;
  const { done, events } = look(path.join(root, 'deep'), 'look-3', () => {
    asked ??= cancel('look-3');
  });
  await assert.rejects(done, { code: 'ECANCELED' });
  assert.deepEqual(new Set(events.map((e) => e.phase)), new Set(['walk']));
  assert.deepEqual(await asked, { cancelled: true });
  // And it was the cancel that stopped it: the whole walk reaches the file at the bottom.
  const whole = look(path.join(root, 'deep'), 'look-4');
  assert.deepEqual(
    (await whole.done).candidates.map((c) => path.basename(c.path)),
    ['bottom.img'],
  );
});

test('a listId in use is refused, by a listing or a search alike; no listId, no events', async () => {
  // The first search must still be running when the second call comes: the deep tree's walk (one
  // batch a level) is, once it has reported progress. Two calls sent at once would race through
  // their path checks, and either could be the one refused.
  const deep = path.join(root, 'deep');
  if (!existsSync(deep)) {
    zeros(path.join(deep, ...Array.from({ length: 1500 }, () => 'a'), 'bottom.img'), 3);
  }
  let running!: () => void;
  const started = new Promise<void>((resolve) => (running = resolve));
  const first = look(deep, 'same', () => running());
  await started;
  await assert.rejects(
    dispatcher.call('space.sparse.list', { path: images, listId: 'same' }, { emit: () => {} }),
    { code: 'EINVAL', message: 'A job with that id is running; use a new id.' },
  );
  await first.done;
  const quiet: CallContext = { emit: () => assert.fail('no progress without a listId') };
  await dispatcher.call('space.sparse.candidates', { path: images, minBytes: 2 * MiB }, quiet);
});
