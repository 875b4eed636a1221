/**
 * A quick run is labelled as one wherever its figures are shown, and the test cards say what will
 * actually run (issue 25), in real Chromium through `plumb serve`: at the quick scale each card
 * describes the plan as it will run, shrunk ("At 1 % of the full plan: 160 files from 20.5 KB to
 * 20 MB…"), no card promises "about 0.0 s"; the speed test's result and the result shown when a
 * run ends carry the "Quick run (1 %)" banner the Results page has.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const skip = chromiumMissingReason();
if (skip) console.log(`# skipping the quick-run labels browser test: ${skip}`);

let ui: UiSession | undefined;
let folder: string;
before(async () => {
  if (skip) return;
  ui = await startUiSession('quick-labels');
  folder = path.join(ui.work, 'disk');
  mkdirSync(folder);
});
after(() => ui?.close());

test(
  'quick runs: the cards say what runs, and both results right after say "Quick run"',
  { skip, timeout: 180_000 },
  async () => {
    const page = await ui!.openPage('#/bench');
    await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
    await page.getByLabel('Test files go in').fill(folder);
    await page.getByRole('button', { name: 'Use this folder' }).click();
    await page.getByText('Plumb writes into a new folder inside').waitFor();
    assert.equal(await page.getByLabel('Scale', { exact: true }).inputValue(), '0.01');

    // The speed test says how big its run is in words, not as a "scale".
    const speedText = await page.locator('#quick-test-what').innerText();
    assert.match(speedText, /^The standard test at 1 % of full size, for one read and one write/);
    assert.doesNotMatch(speedText, /scale/i);

    const cards = page.locator('.plan-choice');
    const standard = cards.filter({ hasText: 'Standard' }).first();
    assert.match(
      await standard.locator('.choice-detail').innerText(),
      /^At 1 % of the full plan: 160 files from 20\.5 KB to 20 MB in random order, written then read back\.$/,
    );
    for (const detail of await cards.locator('.choice-detail').allInnerTexts()) {
      assert.doesNotMatch(
        detail,
        /\b2 GB\b|1\.1 GB/,
        `a full-size figure on a quick card: ${detail}`,
      );
    }
    // Estimates arrive once the folder's rates are known.
    await cards.locator('.choice-estimate').first().filter({ hasText: 'written' }).waitFor();
    for (const estimate of await cards.locator('.choice-estimate').allInnerTexts()) {
      assert.doesNotMatch(estimate, /about 0\.0 s/, estimate);
    }
    await ui!.shoot(page, 'quick-cards');

    // The one-button speed test: its figures come with the quick-run banner.
    await page.getByRole('button', { name: 'Run speed test' }).click();
    const speed = page.getByRole('region', { name: /^Speed of / });
    await speed.waitFor({ timeout: 90_000 });
    const banner = speed.getByTestId('quick-run').filter({ hasText: 'Quick run (1 %).' });
    await banner.waitFor();
    // Named once: the banner's label, then what it means (it said "Quick run" twice).
    assert.equal(
      (await banner.innerText()).match(/quick run/gi)?.length,
      1,
      await banner.innerText(),
    );
    await ui!.shoot(page, 'quick-speed-result');
    await speed.getByRole('button', { name: 'New test' }).click();

    // A plan started from its card: the result shown when it ends says so too.
    await page.getByText('Standard', { exact: true }).click();
    await page.getByRole('button', { name: 'Start test' }).click();
    const finished = page.getByText('Finished and saved to');
    await finished.waitFor({ timeout: 90_000 });
    await page
      .getByTestId('live-view')
      .getByTestId('quick-run')
      .filter({ hasText: 'Quick run (1 %).' })
      .waitFor();
    await ui!.shoot(page, 'quick-inline-result');
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);
