/**
 * Cancelling a move to the Trash from the Space view, in real Chromium through `plumb serve`, on
 * an ext4 loop volume (no clones, so the view offers the Trash): the confirmation dialog shows the
 * apply's progress in files and bytes with a Cancel button; Cancel stops it between files, the
 * summary counts what moved and what did not, and every file is whole where the counts say.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { plainCopy, randomFile, sha256 } from '../helpers/space-files.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const skip = chromiumMissingReason() ?? loopSkipReason('ext4');
if (skip) console.log(`# skipping the apply-cancel UI test: ${skip}`);

const MiB = 1024 * 1024;
/** Enough copies that moving them lasts long past a click on Cancel. */
const copies = 600;
const uid = process.getuid?.() ?? 0;
let ui: UiSession | undefined;
let fs: MountedFs | undefined;

before(async () => {
  if (skip) return;
  fs = mountLoopFs('ext4', { sizeBytes: 256 * MiB });
  ui = await startUiSession('ui-apply-cancel');
});

after(async () => {
  await ui?.close();
  fs?.unmount();
});

test(
  'Cancel in the apply dialog stops a move to the Trash between files',
  { skip, timeout: 120_000 },
  async () => {
    const root = path.join(fs!.dir, 'photos');
    const kept = randomFile(path.join(root, 'photo.raw'), 128 * 1024 + 5);
    const digest = sha256(kept);
    const files = [kept];
    for (let i = 0; i < copies; i += 1) {
      files.push(plainCopy(kept, path.join(root, 'copies', `photo-${i}.raw`)));
    }

    const page = await ui!.openPage('#/space', { viewport: { width: 1280, height: 900 } });
    await page.getByRole('heading', { name: 'Reclaim space' }).waitFor();
    await page.getByLabel('Folder to look for copies in').fill(root);
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByRole('table', { name: 'Duplicate groups' }).waitFor({ timeout: 60_000 });
    await page.locator('.group-name').first().click();
    await page.getByRole('button', { name: 'Move copies to Trash…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move copies to the Trash?' });
    await dialog.getByRole('button', { name: 'Move to Trash' }).click();

    const progress = dialog.getByTestId('apply-progress');
    await progress.waitFor();
    assert.match((await progress.textContent()) ?? '', new RegExp(`of ${copies} files · `));
    await ui!.shoot(page, 'ui-space-apply-cancel-progress');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const summary = page.getByRole('article', { name: 'What changed' });
    await summary.waitFor({ timeout: 60_000 });
    const moved = Number(await page.getByTestId('trash-moved').textContent());
    assert.ok(moved < copies, `moved ${moved} of ${copies}: stopped part way`);
    assert.match((await summary.textContent()) ?? '', /cancelled (before|during) this file/);
    await ui!.shoot(page, 'ui-space-apply-cancel-summary');

    const trashed = readdirSync(path.join(fs!.dir, `.Trash-${uid}`, 'files'));
    assert.equal(trashed.length, moved);
    for (const name of trashed) {
      assert.equal(sha256(path.join(fs!.dir, `.Trash-${uid}`, 'files', name)), digest);
    }
    const left = files.filter((file) => existsSync(file));
    assert.equal(left.length, files.length - moved);
    for (const file of left) assert.equal(sha256(file), digest, `${file} is whole`);
  },
);
