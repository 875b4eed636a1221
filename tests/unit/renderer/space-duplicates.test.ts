import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alreadySharedCode } from '../../../app/common/space-codes.js';
import type { DedupeAction, DedupeReport } from '../../../app/contract/space.js';
import {
  alreadySharing,
  confirmationSentences,
  freedComparison,
  planFreesOf,
  plannedTotals,
  progressFigures,
  reclaimableOf,
  relativeToRoot,
  scanAge,
  filterGroups,
  folderUnderRoot,
  isUnder,
  keepersInFolder,
  sparseProgressFigures,
  selectionText,
  skippedOrFailed,
  sortGroups,
  summariseSelection,
  totalLines,
} from '../../../renderer/src/screens/space/duplicates-view.js';
import { group } from '../../helpers/space-groups.js';

function report(partial: Partial<DedupeReport>): DedupeReport {
  return {
    dryRun: true,
    method: 'dedupe-range',
    actions: [],
    predictedBytes: 0,
    measuredFreedBytes: null,
    counts: { planned: 0, done: 0, skipped: 0, failed: 0 },
    ...partial,
  };
}

test('groups sort by reclaimable bytes, unknown ones last by nominal size', () => {
  const sorted = sortGroups([
    group('small', 1000, 1, 1000),
    group('unknown-big', 9e6, 1, null),
    group('shared', 5e6, 2, 0),
    group('big', 4e6, 1, 4e6),
    group('unknown-small', 10, 1, null),
  ]);
  assert.deepEqual(
    sorted.map((g) => g.id),
    ['big', 'small', 'shared', 'unknown-big', 'unknown-small'],
  );
});

test('totals explain themselves and say "Unknown" instead of zero', () => {
  const known = totalLines(
    { nominalBytes: 3e6, sharedBytes: 1e6, reclaimableBytes: 2e6, unknownGroups: 0 },
    true,
  );
  assert.deepEqual(
    known.map((l) => [l.label, l.value]),
    [
      ['Duplicate copies', '3.00 MB'],
      ['Already shared', '1.00 MB'],
      ['Reclaimable', '2.00 MB'],
    ],
  );
  assert.match(known[0]!.explanation, /overstates/);
  assert.match(known[2]!.explanation, /already share storage count for nothing/);

  const unknown = totalLines(
    { nominalBytes: 3e6, sharedBytes: null, reclaimableBytes: null, unknownGroups: 2 },
    null,
  );
  assert.equal(unknown[1]!.value, 'Unknown');
  assert.equal(unknown[2]!.value, 'Unknown');
  assert.match(unknown[2]!.explanation, /will not guess/);

  const partly = totalLines(
    { nominalBytes: 3e6, sharedBytes: 0, reclaimableBytes: 1e6, unknownGroups: 1 },
    true,
  );
  assert.match(partly[2]!.explanation, /could not tell for 1 group/);

  assert.equal(known[2]!.tone, 'saving');
  assert.equal(unknown[2]!.tone, 'neutral', 'an unknown saving is not good news');
  const none = totalLines(
    { nominalBytes: 3e6, sharedBytes: 3e6, reclaimableBytes: 0, unknownGroups: 0 },
    true,
  );
  assert.equal(none[2]!.value, '0 B');
  assert.equal(none[2]!.tone, 'neutral', 'a 0 B reclaimable card is not coloured as a saving');
});

test('on a disk without clones the third total is what the Trash would free, hard links aside', () => {
  const copies = group('a', 1e6, 2, 0);
  copies.files[2]!.links = 2; // one name of a file with another name elsewhere: frees nothing
  const lines = totalLines(
    { nominalBytes: 2e6, sharedBytes: 0, reclaimableBytes: 0, unknownGroups: 0 },
    false,
    [copies],
  );
  assert.equal(lines[2]!.label, 'Freed by the Trash');
  assert.equal(lines[2]!.value, 'About 1.00 MB');
  assert.equal(lines[2]!.tone, 'saving');
  assert.match(lines[2]!.explanation, /cannot clone.*Trash.*deleted from the Trash/);
  const summary = summariseSelection([copies], new Set(['a']), 'trash');
  assert.equal(selectionText(summary), '1 group, 2 copies · about 1.00 MB to free');
  const empty = totalLines(
    { nominalBytes: 0, sharedBytes: 0, reclaimableBytes: 0, unknownGroups: 0 },
    false,
  );
  assert.equal(empty[2]!.tone, 'neutral');
});

test('a selection sums copies and known savings, and counts unknown groups apart', () => {
  const groups = [group('a', 1e6, 2, 2e6), group('b', 5e5, 1, 5e5), group('c', 1e6, 1, null)];
  const summary = summariseSelection(groups, new Set(['a', 'c']));
  assert.deepEqual(summary, {
    groups: 2,
    copies: 3,
    alreadyClones: 0,
    reclaimableBytes: 2e6,
    unknownGroups: 1,
  });
  assert.equal(
    selectionText(summary),
    '2 groups, 3 copies · about 2.00 MB to free (1 group unknown)',
  );
  assert.equal(
    selectionText(summariseSelection(groups, new Set(['c']))),
    '1 group, 1 copy · saving unknown until measured',
  );
  assert.equal(selectionText(summariseSelection(groups, new Set())), 'No groups selected.');
});

test('a selection counts the copies the dialog will change: clones already are not counted', () => {
  const mixed = group('m', 1e6, 6, 5e6);
  mixed.files[3]!.alreadyClone = true;
  const summary = summariseSelection([mixed], new Set(['m']));
  assert.equal(summary.copies, 5);
  assert.equal(
    selectionText(summary),
    '1 group, 5 copies (1 other is already a clone) · about 5.00 MB to free',
  );
});

test('the confirmation repeats the plan: files, bytes, method, nothing deleted, verified first', () => {
  const planned = (groupId: string, target: string) => ({
    groupId,
    keeper: `/d/${groupId}-0`,
    target,
    predictedBytes: 1000,
    status: 'planned' as const,
    reason: null,
    code: null,
  });
  const sentences = confirmationSentences(
    report({
      method: 'clone-rename',
      predictedBytes: 3_000_000,
      actions: [
        planned('a', '/d/a-1'),
        planned('a', '/d/a-2'),
        planned('b', '/d/b-1'),
        { ...planned('b', '/d/b-2'), status: 'skipped', reason: 'changed since the scan' },
      ],
      counts: { planned: 3, done: 0, skipped: 1, failed: 0 },
    }),
  );
  assert.equal(sentences[0], '3 files in 2 groups will become clones of their group’s kept file.');
  assert.match(sentences[1]!, /Predicted to free 3\.00 MB/);
  assert.match(sentences[2]!, /^Method: Clone, verify, then rename\./);
  assert.match(sentences[3]!, /^Nothing is deleted\..*verified before any storage is shared/);
  assert.equal(
    sentences[4],
    '1 file is already skipped in the plan and will not be touched: changed since the scan.',
  );
  assert.match(confirmationSentences(report({ predictedBytes: null }))[1]!, /cannot predict/);
});

test('the result puts the measured saving beside the prediction and reads the difference', () => {
  const done = { planned: 0, done: 2, skipped: 0, failed: 0 };
  const same = freedComparison(
    report({
      dryRun: false,
      predictedBytes: 2_000_000,
      measuredFreedBytes: 2_004_096,
      counts: done,
    }),
  );
  assert.deepEqual([same.predicted, same.measured], ['2.00 MB', '2.00 MB']);
  assert.equal(
    same.sentence,
    '2 files now share storage. The measured saving matches the prediction.',
  );
  const less = freedComparison(
    report({
      dryRun: false,
      predictedBytes: 2_000_000,
      measuredFreedBytes: 1_000_000,
      counts: done,
    }),
  );
  assert.match(less.sentence, /freed 1\.00 MB less than predicted/);
  const unknown = freedComparison(
    report({ dryRun: false, predictedBytes: null, measuredFreedBytes: 5000, counts: done }),
  );
  assert.equal(unknown.predicted, 'Unknown');
  assert.match(unknown.sentence, /Measured 5\.00 KB freed/);
  assert.equal(freedComparison(report({ counts: done })).measured, 'Unknown');
});

test('a copy that already shares its storage is said apart, not as skipped or failed', () => {
  const action = (target: string, status: DedupeAction['status'], code: string | null) => ({
    groupId: 'a',
    keeper: '/d/a-0',
    target,
    predictedBytes: status === 'done' ? 1000 : 0,
    status,
    reason: code ? 'why' : null,
    code,
  });
  const applied = report({
    dryRun: false,
    actions: [
      action('/d/a-1', 'done', null),
      action('/d/a-2', 'skipped', alreadySharedCode),
      action('/d/a-3', 'failed', 'EIO'),
    ],
    predictedBytes: 1000,
    measuredFreedBytes: 1000,
    counts: { planned: 0, done: 1, skipped: 1, failed: 1 },
  });
  assert.equal(alreadySharing(applied), 1);
  assert.equal(skippedOrFailed(applied), 1);
  assert.match(
    freedComparison(applied).sentence,
    /^1 file now shares storage \(1 other already did: 0 B freed\)\./,
  );
  const plan = report({
    actions: [action('/d/a-1', 'planned', null), action('/d/a-2', 'skipped', alreadySharedCode)],
    counts: { planned: 1, done: 0, skipped: 1, failed: 0 },
  });
  assert.equal(
    confirmationSentences(plan).at(-1),
    '1 file already shares all its storage with the kept file: left alone, freeing 0 B.',
  );
});

test('the dry run of the current keep choices gives the one figure per group', () => {
  const a = group('a', 1000, 2, 2000);
  const b = group('b', 500, 1, 500);
  const action = (g: string, status: DedupeAction['status'], bytes: number | null) => ({
    groupId: g,
    keeper: `/d/${g}-0`,
    target: `/d/${g}-x`,
    predictedBytes: bytes,
    status,
    reason: null,
    code: null,
  });
  // Another kept file in a: its copies free 1,800 B by their own blocks, not the scan's 2,000.
  const frees = planFreesOf(
    report({
      actions: [
        action('a', 'planned', 1000),
        action('a', 'planned', 800),
        action('b', 'skipped', 500),
      ],
    }),
  );
  assert.deepEqual(
    [...frees],
    [
      ['a', 1800],
      ['b', 0],
    ],
  );
  assert.equal(reclaimableOf(a, frees), 1800);
  assert.equal(reclaimableOf(a, null), 2000);
  const totals = { nominalBytes: 2500, sharedBytes: 0, reclaimableBytes: 2500, unknownGroups: 0 };
  assert.equal(plannedTotals(totals, [a, b], frees).reclaimableBytes, 1800);
  assert.equal(
    summariseSelection([a, b], new Set(['a']), 'clone', frees).reclaimableBytes,
    1800,
    'the selection gives what the dialog will',
  );
  const unknown = planFreesOf(report({ actions: [action('a', 'planned', null)] }));
  assert.equal(unknown.has('a'), false, 'unknown: the scan’s figure stays');
});

test('scan progress shows files, bytes and time left, estimating until it can', () => {
  assert.equal(progressFigures(null).timeLeft, 'Estimating…');
  const figures = progressFigures({
    scanId: 's',
    phase: 'hash',
    files: 12345,
    bytes: 5e9,
    bytesToHash: 2e9,
    bytesHashed: 5e8,
    seconds: 3,
    secondsLeft: 250,
  });
  assert.deepEqual(figures, {
    files: '12,345',
    bytes: '5.00 GB',
    timeLeft: '4 min 10 s',
    fraction: 0.25,
    phase: 'Hashing candidates',
  });
  assert.equal(
    progressFigures({ ...figuresInput(), bytesToHash: 0 }).fraction,
    null,
    'no fraction before anything needs hashing',
  );
});

test('sparse listing progress: the walk has no end to show; reading maps has a bar and time left', () => {
  assert.deepEqual(sparseProgressFigures(null), {
    files: '0',
    bytes: '0 B',
    timeLeft: 'Estimating…',
    fraction: null,
    phase: 'Starting',
  });
  const base = { listId: 'l', files: 48210, bytes: 7.5e10, seconds: 4 };
  assert.deepEqual(
    sparseProgressFigures({
      ...base,
      phase: 'walk',
      sparseFiles: 0,
      described: 0,
      secondsLeft: null,
    }),
    {
      files: '48,210',
      bytes: '75.0 GB',
      timeLeft: 'Estimating…',
      fraction: null,
      phase: 'Listing files',
    },
  );
  assert.deepEqual(
    sparseProgressFigures({
      ...base,
      phase: 'describe',
      sparseFiles: 8,
      described: 2,
      secondsLeft: 90,
    }),
    {
      files: '48,210',
      bytes: '75.0 GB',
      timeLeft: '1 min 30 s',
      fraction: 0.25,
      phase: 'Reading the data and holes of 8 sparse files',
    },
  );
  const one = sparseProgressFigures({
    ...base,
    phase: 'describe',
    sparseFiles: 1,
    described: 0,
    secondsLeft: null,
  });
  assert.equal(one.phase, 'Reading the data and holes of 1 sparse file');
  assert.equal(one.fraction, 0);
  // No sparse files at all: nothing left to read, the bar is full.
  const none = sparseProgressFigures({
    ...base,
    phase: 'describe',
    sparseFiles: 0,
    described: 0,
    secondsLeft: null,
  });
  assert.equal(none.fraction, 1);
});

test('sparse candidates progress: the same walk, then the large files read for zeros', () => {
  const base = { listId: 'c', files: 1200, bytes: 3.2e11, seconds: 9 };
  assert.deepEqual(
    sparseProgressFigures({
      ...base,
      phase: 'read',
      sparseFiles: 3,
      described: 1,
      secondsLeft: 42,
    }),
    {
      files: '1,200',
      bytes: '320 GB',
      timeLeft: '42 s',
      fraction: 1 / 3,
      phase: 'Reading 3 large files for runs of zeros',
    },
  );
  const one = sparseProgressFigures({
    ...base,
    phase: 'read',
    sparseFiles: 1,
    described: 0,
    secondsLeft: null,
  });
  assert.deepEqual(
    [one.phase, one.timeLeft],
    ['Reading 1 large file for runs of zeros', 'Estimating…'],
  );
});

function figuresInput() {
  return {
    scanId: 's',
    phase: 'walk' as const,
    files: 1,
    bytes: 1,
    bytesToHash: 0,
    bytesHashed: 0,
    seconds: 0,
    secondsLeft: null,
  };
}

test('paths read relative to the scanned folder', () => {
  assert.equal(relativeToRoot('/home/a/backup/x.raw', '/home/a'), 'backup/x.raw');
  assert.equal(relativeToRoot('/home/a/backup/x.raw', '/home/a/'), 'backup/x.raw');
  assert.equal(relativeToRoot('/home/ab/x.raw', '/home/a'), '/home/ab/x.raw');
  assert.equal(relativeToRoot('C:\\Users\\a\\x.raw', 'C:\\Users\\a'), 'x.raw');
});

test('a kept scan says its age in words', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  assert.equal(scanAge('2026-11-23T11:59:30Z', now), 'just now');
  assert.equal(scanAge('2026-11-23T11:55:00Z', now), '5 minutes ago');
  assert.equal(scanAge('2026-11-23T11:00:00Z', now), '1 hour ago');
  assert.equal(scanAge('2026-11-21T10:00:00Z', now), '2 days ago');
  assert.equal(scanAge('not a date', now), 'at an unknown time');
});

test('filters by size and folder, and the copy in a chosen folder is the one kept', () => {
  const groups = [group('a', 5e6, 2, 0), group('b', 2e3, 1, 0), group('c', 9e6, 1, 0)];
  groups[0]!.files[2]!.path = '/home/me/Backup/a.raw';
  groups[2]!.files[1]!.path = '/home/me/Backup2/c.raw';
  assert.deepEqual(
    filterGroups(groups, { minBytes: 1e6, folder: '' }, '/home/me').map((g) => g.id),
    ['a', 'c'],
  );
  // Whole names: /home/me/Backup is not /home/me/Backup2.
  assert.deepEqual(
    filterGroups(groups, { minBytes: 0, folder: '/home/me/Backup/' }, '/home/me').map((g) => g.id),
    ['a'],
  );
  assert.deepEqual(keepersInFolder(groups, '/home/me/Backup', '/home/me'), {
    a: '/home/me/Backup/a.raw',
  });
  assert.deepEqual(
    keepersInFolder(groups, '/d', '/home/me'),
    {},
    'already kept there: nothing to change',
  );
  assert.equal(isUnder('C:\\Users\\me\\x.doc', 'C:\\Users\\me'), true);
});

test('the folder filter reads a folder as the rows show it: relative to the scanned folder', () => {
  const groups = [group('a', 5e6, 2, 0), group('c', 9e6, 1, 0)];
  groups[0]!.files[2]!.path = '/home/me/Backup/a.raw';
  groups[1]!.files[1]!.path = '/home/me/Backup2/c.raw';
  const shown = (folder: string) =>
    filterGroups(groups, { minBytes: 0, folder }, '/home/me').map((g) => g.id);
  assert.deepEqual(shown('Backup'), ['a']);
  assert.deepEqual(shown('./Backup/'), ['a']);
  assert.deepEqual(shown(' Backup2 '), ['c']);
  assert.deepEqual(shown('/home/me/Backup'), ['a'], 'a full path still works');
  assert.deepEqual(shown('Back'), [], 'whole names only');
  assert.deepEqual(keepersInFolder(groups, 'Backup', '/home/me/'), { a: '/home/me/Backup/a.raw' });
  assert.equal(folderUnderRoot('.', '/home/me'), '/home/me');
  assert.equal(folderUnderRoot('Backup', 'C:\\Users\\me'), 'C:\\Users\\me\\Backup');
  assert.equal(folderUnderRoot('D:\\Backup', 'C:\\Users\\me'), 'D:\\Backup');
});
