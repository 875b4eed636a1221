/**
 * The Space view end to end in real Chromium through `plumb serve`, on a real XFS reflink loop
 * mount: scan a folder of copies, read the three totals, turn two groups into clones through the
 * confirmation (keeping, in one group, the copy chosen in its row: the others end on its blocks),
 * see the measured saving, and find every file intact; then list a sparse file with
 * its map and punch a file's zeros into holes. Screenshots light and dark.
 */
import assert from 'node:assert/strict';
import { closeSync, existsSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { loadNative } from '../../app/core/native/load.js';
import { plainCopy, randomFile, reflinkCopy, sha256 } from '../helpers/space-files.js';

const skip = chromiumMissingReason() ?? loopSkipReason('xfs');
if (skip) console.log(`# skipping the Space UI tests: ${skip}`);

const MiB = 1024 * 1024;
let ui: UiSession | undefined;
let fs: MountedFs | undefined;

before(async () => {
  if (skip) return;
  fs = mountLoopFs('xfs', { sizeBytes: 320 * MiB, mkfsArgs: ['-m', 'reflink=1'] });
  ui = await startUiSession('ui-space');
});

after(async () => {
  await ui?.close();
  fs?.unmount();
});

/** Copies in three groups: 8 MiB ×3 plain, 3 MiB with one clone and one plain copy, 300 KB ×2. */
function makeCopies(root: string): string[] {
  const big = randomFile(path.join(root, 'video.mov'), 8 * MiB);
  const photo = randomFile(path.join(root, 'photos', 'photo.raw'), 3 * MiB);
  const notes = randomFile(path.join(root, 'notes.pdf'), 300_000);
  return [
    big,
    plainCopy(big, path.join(root, 'backup', 'video.mov')),
    plainCopy(big, path.join(root, 'old', 'video copy.mov')),
    photo,
    reflinkCopy(photo, path.join(root, 'photos', 'photo clone.raw')),
    plainCopy(photo, path.join(root, 'backup', 'photo.raw')),
    notes,
    plainCopy(notes, path.join(root, 'backup', 'notes.pdf')),
    randomFile(path.join(root, 'unique.bin'), 500_000),
  ];
}

/** A 64 MiB file with data at 0 and in its middle, holes elsewhere. */
function makeSparse(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, 'w');
  writeSync(fd, Buffer.alloc(MiB, 7), 0, MiB, 0);
  writeSync(fd, Buffer.alloc(2 * MiB, 9), 0, 2 * MiB, 32 * MiB);
  writeSync(fd, Buffer.alloc(1, 1), 0, 1, 64 * MiB - 1);
  closeSync(fd);
}

/** A plain file whose middle 4 MiB are written zeros (allocated), for punching. */
function makeZeroFilled(file: string): void {
  const fd = openSync(file, 'w');
  writeSync(fd, Buffer.alloc(MiB, 5));
  writeSync(fd, Buffer.alloc(4 * MiB, 0));
  writeSync(fd, Buffer.alloc(MiB, 6));
  closeSync(fd);
}

async function openPage(colorScheme: 'light' | 'dark'): Promise<Page> {
  const page = await ui!.openPage('#/space', {
    colorScheme,
    viewport: { width: 1280, height: 860 },
  });
  await page.getByRole('heading', { name: 'Reclaim space' }).waitFor();
  return page;
}

async function shoot(page: Page, name: string): Promise<void> {
  await ui!.shoot(page, `ui-space-${name}`);
}

async function scan(page: Page, folder: string): Promise<void> {
  await page.getByLabel('Folder to look for copies in').fill(folder);
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  const table = page.getByRole('table', { name: 'Duplicate groups' });
  const alert = page.getByRole('alert');
  await table.or(alert).first().waitFor({ timeout: 60_000 });
  if (await alert.isVisible()) throw new Error(`the scan failed: ${await alert.textContent()}`);
}

test(
  'scan, read the totals, apply clones to two groups, and see the measured saving',
  { skip, timeout: 120_000 },
  async () => {
    const root = path.join(fs!.dir, 'copies');
    const files = makeCopies(root);
    const before = files.map(sha256);

    const page = await openPage('light');
    await page.getByRole('heading', { name: 'Find copies that could share storage' }).waitFor();
    await shoot(page, 'empty-light');

    await scan(page, root);
    // Nominal: 2 × 8 MiB + 2 × 3 MiB + 300 KB; the clone of the photo is already shared.
    assert.equal(await page.getByTestId('total-nominal').textContent(), '23.4 MB');
    assert.equal(await page.getByTestId('total-shared').textContent(), '3.15 MB');
    assert.equal(await page.getByTestId('total-reclaimable').textContent(), '20.2 MB');
    const table = page.getByRole('table', { name: 'Duplicate groups' });
    const rows = table.getByRole('row');
    assert.equal(await rows.count(), 4, 'a header and three groups');
    // Largest saving first.
    assert.match((await rows.nth(1).textContent()) ?? '', /video\.mov.*16\.8 MB$/);
    assert.match((await rows.nth(3).textContent()) ?? '', /notes\.pdf/);
    await shoot(page, 'groups-light');

    // Keep the backup's video rather than the scan's choice (the oldest): chosen in its row.
    const chosen = files[1]!;
    const blocksOf = async (file: string) =>
      (await loadNative().fileSharing(file)).extents!.map((e) => [e.physical, e.length]);
    const chosenBlocks = await blocksOf(chosen);
    const keep = page.getByLabel('File of video.mov to keep');
    assert.equal(await keep.inputValue(), files[0]);
    await keep.selectOption(chosen);
    await page.getByRole('checkbox', { name: 'Select video.mov and its 2 copies' }).check();
    await page.getByRole('checkbox', { name: 'Select photo.raw and its 2 copies' }).check();
    assert.equal(
      await page.getByTestId('selection-summary').textContent(),
      // Counted as the dialog counts: the photo's clone is left alone.
      '2 groups, 3 copies (1 other is already a clone) · about 19.9 MB to free',
    );
    await page.getByRole('button', { name: 'Replace copies with clones…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace copies with clones?' });
    await dialog.waitFor();
    const said = (await dialog.getByTestId('confirm-sentences').textContent()) ?? '';
    assert.match(said, /3 files in 2 groups will become clones/);
    assert.match(said, /Predicted to free 19\.9 MB/);
    // The clone of the photo already shares its storage: the plan says so and leaves it alone.
    assert.match(said, /1 file already shares all its storage with the kept file/);
    assert.match(said, /Method: /);
    assert.match(said, /Nothing is deleted\./);
    assert.match(said, /content is verified before any storage is shared/);
    await shoot(page, 'confirm-light');
    await dialog.getByRole('button', { name: 'Replace with clones' }).click();

    await page.getByRole('article', { name: 'What changed' }).waitFor({ timeout: 60_000 });
    assert.equal(await page.getByTestId('applied-predicted').textContent(), '19.9 MB');
    assert.equal(await page.getByTestId('applied-done').textContent(), '3');
    const measured = (await page.getByTestId('applied-measured').textContent()) ?? '';
    const [value, unit] = measured.split(' ');
    assert.equal(unit, 'MB', `measured ${measured}`);
    // Within a few blocks per file of the prediction (XFS metadata, deferred frees).
    assert.ok(Math.abs(Number(value) - 19.9) <= 0.3, `measured ${measured}`);
    await shoot(page, 'applied-light');

    assert.deepEqual(files.map(sha256), before, 'every file keeps its content');
    for (const file of files.slice(0, 3)) {
      assert.deepEqual(await blocksOf(file), chosenBlocks, `${file} is on the kept copy's blocks`);
    }

    // A fresh scan: the cloned copies now count as shared, only the notes are left to reclaim.
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByText(/Scanned .*: 9 files/).waitFor();
    await page
      .getByTestId('total-reclaimable')
      .filter({ hasText: /^30\d KB$/ })
      .waitFor();
    const after = page.getByRole('table', { name: 'Duplicate groups' }).getByRole('row');
    assert.match((await after.nth(1).textContent()) ?? '', /notes\.pdf/, 'notes lead now');
    assert.match((await after.nth(2).textContent()) ?? '', /video\.mov.*16\.8 MB0 B$/);
    await page.close();

    const dark = await openPage('dark');
    await scan(dark, root);
    await dark.getByRole('checkbox', { name: 'Select every group' }).check();
    await shoot(dark, 'groups-dark');
    await dark.close();
    assert.deepEqual(ui!.problems, []);
  },
);

test(
  'the sparse tab lists a sparse file with its map, and punching zeros is an explicit opt-in',
  { skip, timeout: 60_000 },
  async () => {
    const root = path.join(fs!.dir, 'sparse');
    makeSparse(path.join(root, 'disk.img'));
    const zeros = path.join(root, 'zeros.bin');
    makeZeroFilled(zeros);
    const zerosHash = sha256(zeros);

    for (const scheme of ['light', 'dark'] as const) {
      const page = await openPage(scheme);
      await page.getByRole('tab', { name: 'Sparse files' }).click();
      await page.getByRole('heading', { name: 'Files with holes' }).waitFor();
      await page.getByLabel('Folder to list sparse files in').fill(root);
      await page.getByRole('button', { name: 'List sparse files' }).click();
      const item = page.getByRole('listitem', { name: 'disk.img' });
      await item.waitFor();
      assert.equal(await item.getByTestId('sparse-logical').textContent(), '67.1 MB');
      const map = item.getByRole('img', { name: /^Data and holes: / });
      assert.match(
        (await map.getAttribute('aria-label')) ?? '',
        /3 data ranges holding .*; holes .* \(9\d % of the file\)/,
      );
      assert.equal(await map.locator('.hole-map-data').count(), 3);

      if (scheme === 'light') {
        const punch = page.getByRole('form', { name: 'Free the space of zero blocks' });
        await punch.getByLabel('File').fill(zeros);
        await punch.getByRole('button', { name: 'Check for zeros' }).click();
        await punch.getByTestId('punch-warning').waitFor();
        assert.match(
          (await punch.getByTestId('punch-warning').textContent()) ?? '',
          /rewrite it in full/,
        );
        const go = punch.getByRole('button', { name: 'Punch holes' });
        assert.equal(await go.isDisabled(), true, 'nothing happens without the opt-in');
        await punch.getByLabel(/I understand/).check();
        await shoot(page, 'sparse-punch-light');
        await go.click();
        await punch.getByText(/now takes 2\.10 MB on disk \(was 6\.29 MB\)/).waitFor();
        assert.equal(sha256(zeros), zerosHash, 'punching keeps the content');
        // The punched file is sparse now and joins the list.
        await page.getByRole('listitem', { name: 'zeros.bin' }).waitFor();

        // Create: a size it cannot read is refused in place; a good one makes a file with holes.
        const create = page.getByRole('form', { name: 'Create a sparse file' });
        const made = path.join(root, 'made.img');
        await create.getByLabel('New file').fill(made);
        await create.getByLabel('Length').fill('lots');
        await create.getByRole('button', { name: 'Create' }).click();
        await create.getByText('Give a size such as 10 GB or 512 MiB.').waitFor();
        assert.equal(existsSync(made), false, 'a refused size creates nothing');
        await create.getByLabel('Length').fill('256 MiB');
        await create.getByRole('button', { name: 'Create' }).click();
        await create.getByText(`Created ${made}: `).waitFor();
        assert.equal(statSync(made).size, 256 * 1024 * 1024);
        await page.getByRole('listitem', { name: 'made.img' }).waitFor();

        // Copy: the row's button fills in the source; the copy keeps the content and its holes.
        await item.getByRole('button', { name: 'Copy with holes…' }).click();
        const copyForm = page.getByRole('form', { name: 'Copy keeping holes' });
        assert.equal(await copyForm.getByLabel('From').inputValue(), path.join(root, 'disk.img'));
        const copy = path.join(root, 'copy.img');
        await copyForm.getByLabel('To').fill(copy);
        await copyForm.getByRole('button', { name: 'Copy' }).click();
        await copyForm.getByText(`Copied to ${copy}: 67.1 MB long, `).waitFor();
        assert.equal(sha256(copy), sha256(path.join(root, 'disk.img')));
        assert.ok(statSync(copy).blocks * 512 < statSync(copy).size / 2, 'the copy kept its holes');
      }
      await shoot(page, `sparse-${scheme}`);
      await page.close();
    }
    assert.deepEqual(ui!.problems, []);
  },
);
