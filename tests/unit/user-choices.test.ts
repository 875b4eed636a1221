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
import type { OperationGuard } from '../../app/contract/guard.js';
import { resolveForChoice, UserChoices } from '../../app/core/user-choices.js';

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

test('every operation that takes a path marks it in the contract, and marks only fields it has', () => {
  const pathFields = new Set(['path', 'from', 'to', 'pairedWith']);
  // Guarded by hand in user-choices.ts: choosing, and which kept scan a session may see.
  const byHand = new Set(['session.choosePath', 'space.lastScan']);
  const shapeOf = (input: unknown) =>
    ((input as z.ZodObject).shape ?? {}) as Record<string, unknown>;
  const taking = Object.entries(operations)
    .filter(([name, { input }]) => {
      // A field named like a path that is an enum ("from: saved | example") names no path.
      return (
        !byHand.has(name) &&
        Object.entries(shapeOf(input)).some(
          ([key, field]) => pathFields.has(key) && !(field instanceof z.ZodEnum),
        )
      );
    })
    .map(([name]) => name);
  assert.ok(taking.length >= 7, `found ${taking.join(', ')}`);
  const guardOf = (name: string) =>
    (operations[name as keyof typeof operations] as { guard?: OperationGuard }).guard;
  for (const name of taking) {
    const marked = new Set(guardOf(name)?.chosenPaths ?? []);
    for (const field of Object.keys(shapeOf(operations[name as keyof typeof operations].input))) {
      if (pathFields.has(field)) assert.ok(marked.has(field), `${name}: ${field} is not marked`);
    }
  }
  for (const [name, { input }] of Object.entries(operations)) {
    const guard = guardOf(name);
    const fields = Object.keys(shapeOf(input));
    for (const field of [...(guard?.chosenPaths ?? []), ...(guard?.review ?? [])]) {
      assert.ok(fields.includes(field), `${name} marks ${field}, which it does not take`);
    }
    if (guard?.review) assert.ok(fields.includes('apply'), `${name} is reviewed but has no apply`);
    if (guard?.onScan) assert.ok(fields.includes('scanId'), `${name} acts on no scan`);
  }
  // Dedupe and Trash take a scanId, not a path; they are guarded through the scan's root.
  assert.ok(guardOf('space.dedupe')?.onScan && guardOf('space.trash')?.onScan);
});
