import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EmptyTrashReport, TrashAction, TrashReport } from '../../../app/contract/space.js';
import {
  emptiedComparison,
  emptyConfirmationSentences,
  trashAppliedSentence,
  trashConfirmationSentences,
} from '../../../renderer/src/screens/space/trash-view.js';

function action(
  target: string,
  freesBytes: number | null,
  status: TrashAction['status'],
): TrashAction {
  return {
    groupId: target.includes('a') ? 'ga' : 'gb',
    keeper: '/d/keep',
    target,
    freesBytes,
    freesReason:
      freesBytes === 0
        ? 'another name of this file (a hard link) keeps its data'
        : 'a real copy: its allocated size',
    status,
    reason: status === 'skipped' ? 'the file changed since the scan' : null,
    code: null,
    trashedPath: status === 'moved' ? `/v/.Trash-0/files/${target.slice(3)}` : null,
  };
}

function report(actions: TrashAction[], dryRun: boolean): TrashReport {
  const count = (s: TrashAction['status']) => actions.filter((a) => a.status === s).length;
  const counted = actions.filter((a) => a.status === (dryRun ? 'planned' : 'moved'));
  return {
    dryRun,
    batchId: dryRun ? null : 'b-1',
    trash: { available: true, kind: 'xdg-volume', location: '/v/.Trash-0', reason: null },
    actions,
    predictedBytes: counted.reduce((sum, a) => sum + (a.freesBytes ?? 0), 0),
    counts: {
      planned: count('planned'),
      moved: count('moved'),
      skipped: count('skipped'),
      failed: count('failed'),
    },
  };
}

test('the Trash confirmation counts files, says what deleting frees, and that nothing is freed yet', () => {
  const plan = report(
    [
      action('/d/a1', 4096e3, 'planned'),
      action('/d/a2', 0, 'planned'),
      action('/d/b1', 2e6, 'planned'),
      action('/d/b2', 2e6, 'skipped'),
    ],
    true,
  );
  const sentences = trashConfirmationSentences(plan);
  assert.equal(
    sentences[0],
    '3 files in 2 groups will move to the Trash (/v/.Trash-0), each compared byte for byte with the copy that stays just before it moves.',
  );
  assert.equal(sentences[1], 'Deleting them from the Trash would free 6.10 MB.');
  assert.match(
    sentences[2]!,
    /^Nothing is deleted now: the space comes back only when these files are deleted from the Trash/,
  );
  assert.ok(
    sentences.includes(
      '1 file frees nothing: a clone or another name (hard link) of a file that stays.',
    ),
  );
  assert.ok(sentences.includes('1 file is already skipped in the plan and will not be touched.'));
  const none = trashConfirmationSentences({
    ...plan,
    trash: {
      available: false,
      kind: null,
      location: null,
      reason: 'No Trash is reachable on the volume at /srv.',
    },
  });
  assert.match(
    none[0]!,
    /^No Trash is reachable for these files: No Trash is reachable on the volume at \/srv\./,
  );
  assert.match(none[1]!, /does not delete copies outright/);
});

test('the result counts what the dialog counted and offers the second step', () => {
  const done = report(
    [
      action('/d/a1', 3e6, 'moved'),
      action('/d/a2', 0, 'moved'),
      action('/d/b1', 2e6, 'moved'),
      action('/d/b2', 1e6, 'moved'),
      action('/d/b3', 1e6, 'moved'),
      action('/d/b4', 1e6, 'skipped'),
    ],
    false,
  );
  assert.equal(
    trashAppliedSentence(done),
    '5 copies moved to the Trash; 1 file stayed where it was. No space is freed yet: it comes back when these files are deleted from the Trash, which would free 7.00 MB.',
  );
  const plan: EmptyTrashReport = {
    batchId: 'b-1',
    dryRun: true,
    files: [],
    predictedBytes: 7e6,
    measuredFreedBytes: null,
    counts: { planned: 4, deleted: 0, skipped: 1, failed: 0 },
  };
  const sentences = emptyConfirmationSentences(plan, 'Recycle Bin');
  assert.match(
    sentences[0]!,
    /^4 files that Plumb moved to the Recycle Bin will be deleted for good: exactly those/,
  );
  assert.match(sentences[2]!, /^1 file is no longer in the Recycle Bin/);
  const emptied = emptiedComparison(
    {
      ...plan,
      dryRun: false,
      measuredFreedBytes: 7_004_096,
      counts: { planned: 0, deleted: 4, skipped: 1, failed: 0 },
    },
    'Trash',
  );
  assert.deepEqual([emptied.predicted, emptied.measured], ['7.00 MB', '7.00 MB']);
  assert.equal(
    emptied.sentence,
    '4 files deleted from the Trash. The measured saving matches the prediction.',
  );
});
