/**
 * Test a disk in real Chromium: a folder that cannot be used takes the disk chosen before it away,
 * so Start is not left enabled to run on that other disk (and says why in words).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const skip = chromiumMissingReason();
if (skip) console.log(`# skipping the folder-error browser test: ${skip}`);

let ui: UiSession | undefined;
before(async () => {
  if (!skip) ui = await startUiSession('setup-folder');
});
after(() => ui?.close());

test(
  'a folder error leaves no disk chosen and Start disabled',
  { skip, timeout: 60_000 },
  async () => {
    const good = path.join(ui!.work, 'good');
    mkdirSync(good);
    const file = path.join(ui!.work, 'a-file.txt');
    writeFileSync(file, 'not a folder');
    const page = await ui!.openPage('#/bench');
    const field = page.getByLabel('Test files go in');
    const start = page.getByRole('button', { name: 'Start test' });

    await field.fill(good);
    await page.getByRole('button', { name: 'Use this folder' }).click();
    await page.getByText('Plumb writes into a new folder inside').waitFor();
    assert.equal(await start.isDisabled(), false);

    for (const bad of [path.join(ui!.work, 'missing'), file, '']) {
      await field.fill(bad);
      await page.getByRole('button', { name: 'Use this folder' }).click();
      const alert = page.getByRole('alert').filter({ hasText: /\S/ }).first();
      await alert.waitFor();
      assert.doesNotMatch((await alert.textContent()) ?? '', /ENOENT|ENOTDIR|errno|at \//, bad);
      assert.equal(await start.isDisabled(), true, `Start stays enabled after "${bad}"`);
      // Clicking it anyway runs nothing: no test folder appears in the folder chosen first.
      await start.click({ force: true }).catch(() => undefined);
      await page.waitForTimeout(300);
      assert.deepEqual(readdirSync(good), [], bad);
    }
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);
