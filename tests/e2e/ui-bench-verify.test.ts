/**
 * The "Verify every byte afterwards" switch in real Chromium through `plumb serve`: offered for the
 * plans that write files, it makes the run read everything back, and the verdict shows the
 * capacity check.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const noChromium = chromiumMissingReason();
let ui: UiSession | undefined;
let scratch: string;

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'plumb-ui-verify-'));
  if (!noChromium) ui = await startUiSession('ui-verify');
});

after(async () => {
  await ui?.close();
  rmSync(scratch, { recursive: true, force: true });
});

test(
  'the verify switch reads every file back and the verdict shows the capacity check',
  { skip: noChromium, timeout: 240_000 },
  async () => {
    const page = await ui!.openPage('#/bench', { colorScheme: 'light' });
    const folder = path.join(scratch, 'verify');
    mkdirSync(folder);
    await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
    await page.getByLabel('Test files go in').fill(folder);
    await page.getByRole('button', { name: 'Use this folder' }).click();
    await page.getByText('Plumb writes into a new folder inside').waitFor();
    const verifySwitch = page.getByLabel('Verify every byte afterwards');

    // Offered only where files are written and kept to the end of the run.
    await page.getByText('Queue-depth grid', { exact: true }).click();
    assert.equal(await verifySwitch.count(), 0);
    await page.getByText('Sustained write', { exact: true }).click();
    assert.equal(await verifySwitch.count(), 1);
    await page.getByText('Standard', { exact: true }).click();
    await verifySwitch.check();
    await page.getByRole('button', { name: 'Start test' }).click();
    await page.getByText('Finished and saved to').waitFor({ timeout: 200_000 });
    const verdict = page.getByTestId('verify-verdict');
    await verdict.waitFor();
    assert.match(
      (await verdict.textContent()) ?? '',
      /read back as written.*Capacity checked: \S+ \S+ written and read back intact\. Every byte written was read back as written: .* in 160 files/,
    );
    assert.deepEqual(readdirSync(folder), [], 'the test files are gone');
    // The results list says the run was checked, beside the run.
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: /^Results/ })
      .click();
    const row = page.getByRole('row', { name: /Standard/ }).first();
    assert.equal(await row.getByTestId('capacity-check').textContent(), 'Capacity checked');
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);
