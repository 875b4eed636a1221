/**
 * Reclaim space as a DaisyDisk user meets it (issue 25), in real Chromium through `plumb serve`,
 * on an XFS reflink loop disk and a small ext4 one: the "In folder" filter takes the folder as the
 * rows show it; after an apply the figures are the folder's as it now is (reclaimable down by what
 * was freed, the applied groups already sharing) while the keep choices of untouched groups stay,
 * and the free space on the Space screen and Volumes follows; a copy already sharing its storage
 * is said apart, not as a failure; the card, the selection and the dialog give one prediction; a
 * read-only disk is said before anything is offered; a folder inspected on Volumes leads on to
 * Test and Reclaim, and a relative path is refused in words; the sparse tools' words hold.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { loadNative } from '../../app/core/native/load.js';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { runPlumb } from '../helpers/cli.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { plainCopy, randomFile, reflinkCopy, sha256 } from '../helpers/space-files.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const skip = chromiumMissingReason() ?? loopSkipReason('xfs') ?? loopSkipReason('ext4');
if (skip) console.log(`# skipping the Reclaim space UI test: ${skip}`);

const MiB = 1024 * 1024;
let ui: UiSession | undefined;
let xfs: MountedFs | undefined;
let ext4: MountedFs | undefined;

before(async () => {
  if (skip) return;
  xfs = mountLoopFs('xfs', { sizeBytes: 320 * MiB, mkfsArgs: ['-m', 'reflink=1'] });
  ext4 = mountLoopFs('ext4', { sizeBytes: 128 * MiB, mkfsArgs: ['-b', '4096'] });
  ui = await startUiSession('ui-reclaim');
});

after(async () => {
  await ui?.close();
  xfs?.unmount();
  ext4?.unmount();
});

async function openSpace(): Promise<Page> {
  const page = await ui!.openPage('#/space', { viewport: { width: 1280, height: 900 } });
  await page.getByRole('heading', { name: 'Reclaim space' }).waitFor();
  return page;
}

async function scan(page: Page, folder: string): Promise<void> {
  await page.getByLabel('Folder to look for copies in').fill(folder);
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  await page.getByRole('table', { name: 'Duplicate groups' }).waitFor({ timeout: 60_000 });
}

async function text(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? '';
}

/** The free figure ("123 MB free of 380 MB") in an element's text. */
async function freeFigure(element: Locator): Promise<string> {
  const match = /([\d.]+ [kMG]?B) free of/.exec(await text(element));
  assert.ok(match, `no free space in: ${await text(element)}`);
  return match[1]!;
}

/** Copies in three groups: 8 MiB ×3 plain, 3 MiB with one clone and one plain copy, 300 KB ×2. */
function makeCopies(root: string): Record<string, string> {
  const video = randomFile(path.join(root, 'video.mov'), 8 * MiB);
  const photo = randomFile(path.join(root, 'photos', 'photo.raw'), 3 * MiB);
  const notes = randomFile(path.join(root, 'notes.pdf'), 300_000);
  return {
    video,
    videoBackup: plainCopy(video, path.join(root, 'backup', 'video.mov')),
    videoOld: plainCopy(video, path.join(root, 'old', 'video copy.mov')),
    photo,
    photoClone: reflinkCopy(photo, path.join(root, 'photos', 'photo clone.raw')),
    photoBackup: plainCopy(photo, path.join(root, 'backup', 'photo.raw')),
    notes,
    notesBackup: plainCopy(notes, path.join(root, 'backup', 'notes.pdf')),
  };
}

test(
  'after an apply the figures are the folder as it now is, choices kept, free space followed',
  { skip, timeout: 180_000 },
  async () => {
    const root = path.join(xfs!.dir, 'home');
    const files = makeCopies(root);
    const digests = Object.values(files).map(sha256);
    const page = await openSpace();
    // The words say what is deleted for each kind of disk.
    const lede = await text(page.locator('.lede'));
    assert.match(lede, /On disks that can clone, no file is deleted/);
    assert.match(lede, /deleted for good only when you confirm that as a second step/);
    assert.doesNotMatch(await text(page.locator('main')), /No file is ever deleted/);

    await scan(page, root);
    assert.equal(await text(page.getByTestId('total-reclaimable')), '20.2 MB');
    const heading = page.locator('#groups-title');

    // "In folder" takes the folder as the rows show it (relative to the scanned folder).
    const inFolder = page.getByLabel('In folder');
    await inFolder.fill('old');
    await page.getByText('1 duplicate group shown of 3').waitFor();
    await inFolder.fill('./backup/');
    await page.getByText('3 duplicate groups, largest saving first').waitFor();
    await inFolder.fill('photos');
    await page.getByText('1 duplicate group shown of 3').waitFor();
    await inFolder.fill(path.join(root, 'old'));
    await page.getByText('1 duplicate group shown of 3').waitFor();
    await inFolder.fill('old');
    await page.getByRole('button', { name: 'Keep the copies in this folder' }).click();
    // The row is named by the file it keeps now.
    assert.equal(
      await page.getByLabel('File of video copy.mov to keep').inputValue(),
      files.videoOld,
    );
    await inFolder.fill('');
    assert.match(await text(heading), /^3 duplicate groups/);
    // A choice in a group that will not be applied now: it must survive the apply.
    await page.getByLabel('File of notes.pdf to keep').selectOption(files.notesBackup!);

    await page.getByRole('checkbox', { name: 'Select video copy.mov and its 2 copies' }).check();
    await page.getByRole('checkbox', { name: 'Select photo.raw and its 2 copies' }).check();
    const selection = await text(page.getByTestId('selection-summary'));
    const offered = /about ([\d.]+ [kMG]?B) to free/.exec(selection)?.[1];
    assert.ok(offered, selection);
    const freeLine = page.getByTestId('free-space');
    const freeBefore = await freeFigure(freeLine);
    await ui!.shoot(page, 'reclaim-after-apply-selected');

    await page.getByRole('button', { name: 'Replace copies with clones…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace copies with clones?' });
    const said = await text(dialog.getByTestId('confirm-sentences'));
    // One prediction: the selection's figure is the dialog's.
    assert.match(said, new RegExp(`Predicted to free ${offered.replace('.', '\\.')};`));
    assert.match(
      said,
      /1 file already shares all its storage with the kept file: left alone, freeing 0 B\./,
    );
    assert.doesNotMatch(said, /already skipped/);
    await dialog.getByRole('button', { name: 'Replace with clones' }).click();

    const summary = page.getByRole('article', { name: 'What changed' });
    await summary.waitFor({ timeout: 60_000 });
    assert.equal(await text(page.getByTestId('applied-done')), '3');
    assert.equal(await text(page.getByTestId('applied-predicted')), offered);
    // The photo's clone is already sharing: said so, 0 B, and not a failure.
    assert.equal(await text(page.getByTestId('applied-shared')), '1');
    assert.equal(await text(page.getByTestId('applied-skipped')), '0');
    assert.match(
      await text(summary),
      /3 files now share storage \(1 other already did: 0 B freed\)/,
    );
    assert.doesNotMatch(await text(summary), /skipped —/);

    // Without a rescan: only the notes are left to reclaim, the applied groups share storage.
    await page
      .getByTestId('total-reclaimable')
      .filter({ hasText: /^30\d KB$/ })
      .waitFor();
    const rows = page.getByRole('table', { name: 'Duplicate groups' }).getByRole('row');
    assert.match(await text(rows.nth(1)), /notes\.pdf/, 'the notes lead now');
    assert.match(await text(rows.nth(2)), /video copy\.mov.*16\.8 MB0 B$/);
    assert.match(await text(rows.nth(3)), /photo\.raw.*0 B$/);
    // The choices: the applied groups are chosen no more; the notes keep the file chosen.
    assert.equal(
      await page.getByLabel('File of notes.pdf to keep').inputValue(),
      files.notesBackup,
    );
    assert.equal(
      await page.getByRole('checkbox', { name: /^Select video copy\.mov/ }).isChecked(),
      false,
    );
    assert.equal(await text(page.getByTestId('selection-summary')), 'No groups selected.');
    // Free space follows, on this screen and on Volumes, without a reload.
    for (let i = 0; i < 50 && (await freeFigure(freeLine)) === freeBefore; i += 1) {
      await page.waitForTimeout(100);
    }
    const freeAfter = await freeFigure(freeLine);
    assert.notEqual(freeAfter, freeBefore, 'the free space shown follows the apply');
    await ui!.shoot(page, 'reclaim-after-apply-after');

    // The untouched group applies on the same scan, with its kept choice.
    await page.getByRole('checkbox', { name: 'Select notes.pdf and its copy' }).check();
    await page.getByRole('button', { name: 'Replace copies with clones…' }).click();
    await dialog.getByRole('button', { name: 'Replace with clones' }).click();
    await page.getByTestId('applied-done').filter({ hasText: /^1$/ }).waitFor({ timeout: 60_000 });
    await page.getByTestId('total-reclaimable').filter({ hasText: /^0 B$/ }).waitFor();
    const blocks = async (file: string) =>
      (await loadNative().fileSharing(file)).extents!.map((e) => e.physical);
    assert.deepEqual(await blocks(files.notes!), await blocks(files.notesBackup!));
    assert.deepEqual(Object.values(files).map(sha256), digests, 'every file keeps its content');

    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Volumes' })
      .click();
    const card = page.getByRole('listitem').filter({ hasText: xfs!.dir });
    await card.waitFor();
    const spaceNow = async () => {
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Reclaim space' })
        .click();
      const figure = await freeFigure(freeLine);
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Volumes' })
        .click();
      return figure;
    };
    assert.equal(await freeFigure(card), await spaceNow(), 'Volumes shows the freed space');
    await page.close();
    assert.deepEqual(ui!.problems, []);
  },
);

test(
  'a read-only disk is said before anything is offered; nothing is tried on it',
  { skip, timeout: 120_000 },
  async () => {
    const root = path.join(xfs!.dir, 'locked');
    const video = randomFile(path.join(root, 'video.mov'), 2 * MiB);
    plainCopy(video, path.join(root, 'backup', 'video.mov'));
    xfs!.remount(true);
    try {
      const page = await openSpace();
      await scan(page, root);
      const blocked = page.getByTestId('action-blocked');
      await blocked.waitFor();
      assert.match(
        await text(blocked),
        /This disk is read-only: Plumb can show what the copies take/,
      );
      await page.getByRole('checkbox', { name: 'Select video.mov and its copy' }).check();
      assert.equal(
        await page.getByRole('button', { name: 'Replace copies with clones…' }).isDisabled(),
        true,
      );
      await ui!.shoot(page, 'reclaim-read-only');
      await page.close();
      // The plan itself knows too: each copy is skipped before anything is tried, in words.
      const run = runPlumb(['space', 'dedupe', root, '--json']);
      assert.equal(run.status, 0, run.stderr);
      const { actions } = JSON.parse(run.stdout).dedupe;
      assert.deepEqual(
        actions.map((a: { status: string; code: string; reason: string }) => [a.status, a.code]),
        [['skipped', 'EROFS']],
      );
      assert.match(actions[0].reason, /its disk is read-only/);
    } finally {
      xfs!.remount(false);
    }
    assert.deepEqual(ui!.problems, []);
  },
);

test(
  'on a disk without clones the card, the selection and the dialog give one Trash figure',
  { skip, timeout: 120_000 },
  async () => {
    const root = path.join(ext4!.dir, 'odd');
    // Sizes off the 4 KiB block: file sizes alone say 2.01 MB, the blocks freed are 2.02 MB.
    const big = randomFile(path.join(root, 'a.bin'), 1_000_001);
    plainCopy(big, path.join(root, 'copy', 'a.bin'));
    plainCopy(big, path.join(root, 'copy2', 'a.bin'));
    const small = randomFile(path.join(root, 'b.bin'), 5000);
    plainCopy(small, path.join(root, 'copy', 'b.bin'));
    const page = await openSpace();
    await scan(page, root);
    await page
      .getByTestId('total-reclaimable')
      .filter({ hasText: /^2\.02 MB$/ })
      .waitFor();
    await page.getByRole('checkbox', { name: 'Select every group' }).check();
    assert.equal(
      await text(page.getByTestId('selection-summary')),
      '2 groups, 3 copies · about 2.02 MB to free',
    );
    await page.getByRole('button', { name: 'Move copies to Trash…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move copies to the Trash?' });
    assert.match(
      await text(dialog.getByTestId('confirm-sentences')),
      /Deleting them from the Trash would free 2\.02 MB\./,
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.close();
    assert.deepEqual(ui!.problems, []);
  },
);

test(
  'a folder inspected on Volumes leads on to Test and Reclaim; a relative path is refused',
  { skip, timeout: 60_000 },
  async () => {
    const page = await ui!.openPage('');
    await page.getByRole('heading', { name: 'Your disks' }).waitFor();
    const folder = path.join(xfs!.dir, 'home', 'backup');
    await page.getByLabel('Folder path').fill(folder);
    await page.getByRole('button', { name: 'Inspect' }).click();
    const card = page.getByRole('article', { name: `Volume of ${folder}` });
    await card.waitFor();
    assert.equal(await card.getByRole('button', { name: `Test this disk: ${folder}` }).count(), 1);
    await card.getByRole('button', { name: `Reclaim space here: ${folder}` }).click();
    await page.getByRole('heading', { name: 'Reclaim space' }).waitFor();
    assert.equal(await page.getByLabel('Folder to look for copies in').inputValue(), folder);

    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Volumes' })
      .click();
    await page.getByLabel('Folder path').fill('Documents/old');
    await page.getByRole('button', { name: 'Inspect' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(
      await text(alert),
      `"Documents/old" is not a full path: give the whole path, such as ${path.join(os.homedir(), 'Documents/old')}`,
    );
    assert.equal(await page.getByRole('article').count(), 0, 'no card for a path not given');
    await page.close();
    assert.deepEqual(ui!.problems, []);
  },
);

test(
  'sparse words: a file longer than its disk warns; a copy into a missing folder names it',
  { skip, timeout: 60_000 },
  async () => {
    const root = path.join(xfs!.dir, 'sparse');
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'small.txt'), 'hello world'); // 11 bytes: not a sparse file
    const page = await openSpace();
    await page.getByRole('tab', { name: 'Sparse files' }).click();
    await page.getByLabel('Folder to list sparse files in').fill(root);
    await page.getByRole('button', { name: 'List sparse files' }).click();
    await page.getByText(`No sparse files in ${root}`).waitFor();
    const create = page.getByRole('form', { name: 'Create a sparse file' });
    const huge = path.join(root, 'huge.img');
    await create.getByLabel('New file').fill(huge);
    await create.getByLabel('Length').fill('100 TB');
    await create.getByRole('button', { name: 'Create' }).click();
    await create.getByText(/it can never be filled there/).waitFor();
    const copy = page.getByRole('form', { name: 'Copy keeping holes' });
    await copy.getByLabel('From').fill(huge);
    const missing = path.join(root, 'no such folder');
    await copy.getByLabel('To').fill(path.join(missing, 'copy.img'));
    await copy.getByRole('button', { name: 'Copy' }).click();
    await copy.getByText(`The folder ${missing} does not exist`).waitFor();
    assert.equal(existsSync(missing), false);
    await page.close();
    assert.deepEqual(ui!.problems, []);
  },
);
