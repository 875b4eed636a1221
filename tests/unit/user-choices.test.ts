import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { z } from 'zod';
import { operations } from '../../app/contract/index.js';
import { createDispatcher } from '../../app/core/dispatch.js';
import { createHandlers } from '../../app/core/services.js';
import { testContext } from '../helpers/context.js';
import { guardedOperations, resolveForChoice, UserChoices } from '../../app/core/user-choices.js';

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'plumb-choices-')));
after(() => rmSync(root, { recursive: true, force: true }));
const quiet = { emit: () => undefined };

test('a chosen folder covers what is inside it, not a sibling that shares its prefix', async () => {
  mkdirSync(path.join(root, 'photos'));
  mkdirSync(path.join(root, 'photos-private'));
  const choices = new UserChoices();
  await choices.choose(path.join(root, 'photos'));
  await choices.requireChosen(path.join(root, 'photos'));
  await choices.requireChosen(path.join(root, 'photos', 'not', 'made', 'yet.img'));
  await choices.requireChosen(path.join(root, 'photos', '..', 'photos', 'a'));
  for (const outside of ['photos-private', '.', '..', 'photos/../photos-private/x']) {
    await assert.rejects(choices.requireChosen(path.join(root, outside)), { code: 'ENOTCHOSEN' });
  }
});

test('a symbolic link inside a chosen folder does not carry the choice out of it', async () => {
  const inside = path.join(root, 'inside');
  const outside = path.join(root, 'outside');
  mkdirSync(inside);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret'), 'x');
  symlinkSync(outside, path.join(inside, 'link'));
  symlinkSync(path.join(outside, 'secret'), path.join(inside, 'secret-link'));
  assert.equal(await resolveForChoice(path.join(inside, 'link', 'new')), path.join(outside, 'new'));
  const choices = new UserChoices();
  await choices.choose(inside);
  for (const escape of ['link', 'link/new', 'secret-link']) {
    await assert.rejects(choices.requireChosen(path.join(inside, escape)), {
      code: 'ENOTCHOSEN',
    });
  }
});

test('an apply runs only after its dry run, once', async () => {
  const choices = new UserChoices();
  let runs = 0;
  const run = async () => ++runs;
  await assert.rejects(choices.afterReview('punch /x', true, run), { code: 'ENOTREVIEWED' });
  assert.equal(runs, 0, 'nothing ran');
  await choices.afterReview('punch /x', false, run);
  await assert.rejects(choices.afterReview('punch /y', true, run), { code: 'ENOTREVIEWED' });
  assert.equal(await choices.afterReview('punch /x', true, run), 2);
  await assert.rejects(choices.afterReview('punch /x', true, run), { code: 'ENOTREVIEWED' });
  assert.equal(runs, 2);
});

test('the desktop picker counts as a choice; a typed path needs session.choosePath', async () => {
  const picked = mkdtempSync(path.join(root, 'picked-'));
  const typed = mkdtempSync(path.join(root, 'typed-'));
  const dispatcher = createDispatcher(
    createHandlers(testContext(), 'electron', {
      'dialog.chooseFolder': async () => ({ path: picked }),
    }),
  );
  await assert.rejects(dispatcher.call('space.sparse.list', { path: picked }, quiet), {
    code: 'ENOTCHOSEN',
  });
  await dispatcher.call('dialog.chooseFolder', {}, quiet);
  assert.deepEqual(await dispatcher.call('space.sparse.list', { path: picked }, quiet), []);
  await assert.rejects(dispatcher.call('space.sparse.list', { path: typed }, quiet), {
    code: 'ENOTCHOSEN',
  });
  await dispatcher.call('session.choosePath', { path: typed }, quiet);
  assert.deepEqual(await dispatcher.call('space.sparse.list', { path: typed }, quiet), []);
});

test('a relative path is refused with the full path to give instead', async () => {
  const choices = new UserChoices();
  await assert.rejects(choices.choose('Documents/old'), {
    code: 'EINVAL',
    message: `"Documents/old" is not a full path: give the whole path, such as ${path.join(os.homedir(), 'Documents/old')}`,
  });
  // Nothing was chosen by it: not even the server's working folder.
  assert.equal(await choices.covers(process.cwd()), false);
});

test('every operation that takes a path is guarded', () => {
  const pathFields = new Set(['path', 'from', 'to', 'pairedWith']);
  const guarded = new Set<string>(guardedOperations);
  const taking = Object.entries(operations)
    .filter(([, { input }]) => {
      const shape = (input as unknown as z.ZodObject).shape as Record<string, unknown> | undefined;
      // A field named like a path that is an enum ("from: saved | example") names no path.
      return Object.entries(shape ?? {}).some(
        ([key, field]) => pathFields.has(key) && !(field instanceof z.ZodEnum),
      );
    })
    .map(([name]) => name);
  assert.ok(taking.length >= 7, `found ${taking.join(', ')}`);
  for (const name of taking) {
    assert.ok(guarded.has(name), `${name} takes a path but is not guarded`);
  }
  // Dedupe takes a scanId, not a path; it is guarded through the scan's root.
  assert.ok(guarded.has('space.dedupe'));
});
