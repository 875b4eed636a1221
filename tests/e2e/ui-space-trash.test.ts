/**
 * The Space view on a disk without clones (an ext4 loop mount), in real Chromium through
 * `plumb serve`: instead of 0 B reclaimable it offers "Move copies to Trash", says per file what
 * deleting it would free (a hard link nothing), moves the copies into the volume's Trash, says the
 * space comes back only when the Trash is emptied, then deletes exactly those files from it and
 * shows the measured saving beside the prediction. Reopening the view shows the kept scan. A move
 * of many copies can be cancelled from its dialog, between files.
 */
import assert from 'node:assert/strict';
import {
  closeSync,
  existsSync,
  openSync,
  writeSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  utimesSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { plainCopy, randomFile, sha256 } from '../helpers/space-files.js';

const skip = chromiumMissingReason() ?? loopSkipReason('ext4');
if (skip) console.log(`# skipping the Space Trash UI test: ${skip}`);

const MiB = 1024 * 1024;
const uid = process.getuid?.() ?? 0;
let ui: UiSession | undefined;
let fs: MountedFs | undefined;

before(async () => {
  if (skip) return;
  fs = mountLoopFs('ext4', { sizeBytes: 256 * MiB });
  ui = await startUiSession('ui-trash');
});

after(async () => {
  await ui?.close();
  fs?.unmount();
});

async function openPage(): Promise<Page> {
  const page = await ui!.openPage('#/space', {
    colorScheme: 'light',
    viewport: { width: 1280, height: 900 },
  });
  await page.getByRole('heading', { name: 'Reclaim space' }).waitFor();
  return page;
}

async function shoot(page: Page, name: string): Promise<void> {
  await ui!.shoot(page, `ui-space-trash-${name}`);
}

test(
  'a disk without clones: copies to the Trash, then deleted from it, measured',
  { skip, timeout: 120_000 },
  async () => {
    const root = path.join(fs!.dir, 'home');
    const video = randomFile(path.join(root, 'video.mov'), 6 * MiB);
    utimesSync(video, new Date('2019-01-01'), new Date('2019-01-01'));
    const copies = [
      plainCopy(video, path.join(root, 'backup', 'video.mov')),
      plainCopy(video, path.join(root, 'old', 'video copy.mov')),
    ];
    linkSync(copies[1]!, path.join(root, 'old', 'video link.mov')); // one file, two names
    const kept = sha256(video);
    const realCopy = lstatSync(copies[0]!).blocks * 512;

    const page = await openPage();
    await page.getByLabel('Folder to look for copies in').fill(root);
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByRole('table', { name: 'Duplicate groups' }).waitFor({ timeout: 60_000 });
    const card = page.locator('.space-total-reclaimable');
    assert.match((await card.textContent()) ?? '', /Freed by the Trash/);
    // The Trash's own figure (its dry run's, as the confirmation gives it), not "About".
    await page
      .getByTestId('total-reclaimable')
      .filter({ hasText: /^6\.29 MB$/ })
      .waitFor();
    assert.match((await card.getAttribute('class')) ?? '', /is-saving/);

    // Clicking a row's name selects it.
    await page.locator('.group-name', { hasText: 'video.mov' }).click();
    assert.ok(
      await page.getByRole('checkbox', { name: 'Select video.mov and its 2 copies' }).isChecked(),
    );
    assert.equal(await page.getByRole('button', { name: 'Copy path: video.mov' }).count(), 1);
    // Choose what stays: the copy in backup/ (the oldest, the original, goes instead).
    await page.getByLabel('In folder').fill(path.join(root, 'backup'));
    await page.getByRole('button', { name: 'Keep the copies in this folder' }).click();
    assert.equal(await page.getByLabel('File of video.mov to keep').inputValue(), copies[0]);
    await page.getByLabel('Files of').selectOption({ label: '100 MB or more' });
    await page.getByText('0 duplicate groups shown of 1').waitFor();
    await page.getByLabel('Files of').selectOption({ label: '1 MB or more' });
    assert.equal(
      await page.getByTestId('selection-summary').textContent(),
      '1 group, 2 copies · about 6.29 MB to free',
    );
    await page.getByRole('button', { name: 'Move copies to Trash…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move copies to the Trash?' });
    await dialog.waitFor();
    const said = (await dialog.getByTestId('confirm-sentences').textContent()) ?? '';
    assert.match(said, /2 files in 1 group will move to the Trash \(.*\.Trash-\d+\)/);
    assert.match(said, /compared byte for byte with the copy that stays/);
    assert.match(said, /the space comes back only when these files are deleted from the Trash/);
    assert.match(said, /1 file frees nothing: a clone or another name \(hard link\)/);
    const rows = dialog.getByTestId('trash-files').getByRole('row');
    assert.equal(await rows.count(), 3);
    const perFile = (await dialog.getByTestId('trash-files').textContent()) ?? '';
    assert.match(perFile, /home\/video\.mov6\.29 MBa real copy: its allocated size/);
    assert.doesNotMatch(perFile, /backup\/video\.mov/, 'the copy chosen to stay is not moved');
    assert.match(perFile, /0 Banother name of this file \(a hard link\) keeps its data/);
    await shoot(page, 'confirm');
    await dialog.getByRole('button', { name: 'Move to Trash' }).click();

    const summary = page.getByRole('article', { name: 'What changed' });
    await summary.waitFor({ timeout: 60_000 });
    assert.equal(await page.getByTestId('trash-moved').textContent(), '2');
    assert.equal(await page.getByTestId('trash-predicted').textContent(), '6.29 MB');
    assert.match(
      (await page.getByTestId('trash-sentence').textContent()) ?? '',
      /^2 copies moved to the Trash\. No space is freed yet: it comes back when these files are deleted from the Trash/,
    );
    const trash = path.join(fs!.dir, `.Trash-${uid}`);
    assert.equal(readdirSync(path.join(trash, 'files')).length, 2);
    assert.equal(readdirSync(path.join(trash, 'info')).length, 2);
    assert.ok(!existsSync(video), 'the original went, as chosen');
    assert.equal(sha256(copies[0]!), kept, 'the copy chosen to stay is intact');
    await shoot(page, 'moved');

    await summary.getByRole('button', { name: 'Delete these 2 files from the Trash…' }).click();
    const second = page.getByRole('dialog', { name: 'Delete 2 files from the Trash for good?' });
    await second.waitFor();
    assert.match(
      (await second.getByTestId('empty-sentences').textContent()) ?? '',
      /exactly those, nothing else in the Trash/,
    );
    await second.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByTestId('trash-measured').waitFor({ timeout: 60_000 });
    const measured = (await page.getByTestId('trash-measured').textContent()) ?? '';
    const [value, unit] = measured.split(' ');
    assert.equal(unit, 'MB', measured);
    assert.ok(
      Math.abs(Number(value) * 1e6 - realCopy) <= 20_000,
      `measured ${measured}, predicted ${realCopy}`,
    );
    assert.match(
      (await page.getByTestId('trash-sentence').textContent()) ?? '',
      /2 files deleted from the Trash\. The measured saving matches the prediction\./,
    );
    assert.deepEqual(readdirSync(path.join(trash, 'files')), []);
    // The walk kept one of the two names of that file (whichever it listed first): the other stays.
    const names = ['video copy.mov', 'video link.mov'].map((n) =>
      existsSync(path.join(root, 'old', n)),
    );
    assert.equal(names.filter(Boolean).length, 1, 'the other name stays');
    await shoot(page, 'emptied');

    // Reopening the view in this browser (a reload) shows the scan kept from before, with its age.
    await page.reload();
    await page.getByTestId('scan-age').waitFor({ timeout: 10_000 });
    assert.match(
      (await page.getByTestId('scan-age').textContent()) ?? '',
      /Kept from a scan just now/,
    );
    await page.close();
    // Another browser that signs in sees nothing of this one's folders.
    const stranger = await openPage();
    await stranger.getByRole('button', { name: 'Scan', exact: true }).waitFor();
    await stranger.waitForTimeout(500);
    assert.equal(await stranger.getByTestId('scan-age').count(), 0, 'another browser’s scan');
    await stranger.close();
    assert.deepEqual(ui!.problems, []);
  },
);

test(
  'the Sparse files tab lists large files that punching would shrink, with the warning',
  { skip, timeout: 120_000 },
  async () => {
    const root = path.join(fs!.dir, 'images');
    mkdirSync(root, { recursive: true });
    const image = path.join(root, 'vm.img');
    const fd = openSync(image, 'w');
    writeSync(fd, randomBytes(MiB));
    for (let i = 0; i < 40; i += 1) writeSync(fd, Buffer.alloc(MiB)); // written zeros, allocated
    for (let i = 0; i < 25; i += 1) writeSync(fd, randomBytes(MiB));
    closeSync(fd);
    const page = await openPage();
    await page.getByRole('tab', { name: 'Sparse files' }).click();
    await page.getByLabel('Folder to list sparse files in').fill(root);
    await page.getByRole('button', { name: 'List sparse files' }).click();
    await page.getByRole('button', { name: 'Look for runs of zeros' }).click();
    const list = page.getByTestId('sparse-candidates');
    await list.waitFor({ timeout: 60_000 });
    assert.match((await list.textContent()) ?? '', /vm\.img frees 41\.9 MB of 69\.\d MB allocated/);
    const region = page.getByRole('region', { name: 'Files that could be made sparse' });
    assert.match((await region.getByRole('note').textContent()) ?? '', /rewrite it in full/);
    await list.getByRole('button', { name: 'Punch…' }).click();
    const punch = page.getByRole('form', { name: 'Free the space of zero blocks' });
    assert.equal(await punch.getByLabel('File').inputValue(), image);
    // The tool further down is brought into view with its button focused: where the file went
    // and what to press next (it was filled out of sight, with no word).
    const check = punch.locator('button[type="submit"]');
    await page.waitForFunction(
      (button) =>
        button ===
        (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
      await check.elementHandle(),
    );
    await check.waitFor({ state: 'visible' });
    assert.ok(
      await check.evaluate(
        (button: { getBoundingClientRect(): { top: number; bottom: number } }) => {
          const box = button.getBoundingClientRect();
          const height = (globalThis as unknown as { innerHeight: number }).innerHeight;
          return box.top >= 0 && box.bottom <= height;
        },
      ),
      'the punch tool is in view',
    );
    await shoot(page, 'sparse-candidates');
    await page.close();
    assert.deepEqual(ui!.problems, []);
  },
);

/** Enough copies that moving them lasts long past a click on Cancel. */
const cancelCopies = 600;

/**
 * The apply dialog shows the move's progress in files and bytes with a Cancel button; Cancel
 * stops it between files, the summary counts what moved, and every file is whole where it is.
 */
test(
  'Cancel in the apply dialog stops a move to the Trash between files',
  { skip, timeout: 120_000 },
  async () => {
    const root = path.join(fs!.dir, 'cancelled');
    const kept = randomFile(path.join(root, 'photo.raw'), 64 * 1024 + 5);
    const digest = sha256(kept);
    const files = [kept];
    for (let i = 0; i < cancelCopies; i += 1) {
      files.push(plainCopy(kept, path.join(root, 'copies', `photo-${i}.raw`)));
    }

    const page = await openPage();
    await page.getByLabel('Folder to look for copies in').fill(root);
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByRole('table', { name: 'Duplicate groups' }).waitFor({ timeout: 60_000 });
    await page.locator('.group-name').first().click();
    await page.getByRole('button', { name: 'Move copies to Trash…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move copies to the Trash?' });
    await dialog.getByRole('button', { name: 'Move to Trash' }).click();

    const progress = dialog.getByTestId('apply-progress');
    await progress.waitFor();
    assert.match((await progress.textContent()) ?? '', new RegExp(`of ${cancelCopies} files · `));
    await shoot(page, 'cancel-progress');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const summary = page.getByRole('article', { name: 'What changed' });
    await summary.waitFor({ timeout: 60_000 });
    const moved = Number(await page.getByTestId('trash-moved').textContent());
    assert.ok(moved < cancelCopies, `moved ${moved} of ${cancelCopies}: stopped part way`);
    // One line for the files the Stop kept it from, their list behind it.
    const untouched = summary.getByTestId('untouched');
    const count = cancelCopies - moved;
    assert.equal(
      await untouched.locator('summary').textContent(),
      `${count} not touched: the apply was stopped before ${count === 1 ? 'this file' : 'these files'}`,
    );
    assert.equal(await untouched.locator('li').count(), count);
    assert.equal(await summary.locator('.space-problems li:visible').count(), 0, 'listed closed');
    await shoot(page, 'cancel-summary');

    const trashed = readdirSync(path.join(fs!.dir, `.Trash-${uid}`, 'files'));
    assert.equal(trashed.length, moved);
    for (const name of trashed) {
      assert.equal(sha256(path.join(fs!.dir, `.Trash-${uid}`, 'files', name)), digest);
    }
    const left = files.filter((file) => existsSync(file));
    assert.equal(left.length, files.length - moved);
    for (const file of left) assert.equal(sha256(file), digest, `${file} is whole`);
    await page.close();
    assert.deepEqual(ui!.problems, []);
  },
);
