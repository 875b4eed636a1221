/**
 * The "Capacity check" test in real Chromium through `plumb serve`, on a fake "2 GB" stick
 * (wrapfs, its real size drawn at random below what the check fills): chosen beside the other
 * tests, it runs at full size whatever the scale, fills what the guard allows, shows its
 * read-back as a phase of its own (never a full bar while it goes on), and ends with the verdict
 * in words at the top. Screenshots to test-artifacts/capacity-*.png.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { baseSeed, seededRandom } from '../helpers/synthetic-samples.js';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';
import { fakeDiskSkipReason, makeFakeDisk, type FakeDisk } from '../helpers/verify-disks.js';

const seed = baseSeed();
const random = seededRandom(seed);

const skip = chromiumMissingReason() ?? fakeDiskSkipReason();
if (skip) console.log(`# skipping the capacity check UI test: ${skip}`);
let ui: UiSession | undefined;
let disk: FakeDisk | undefined;

before(async () => {
  if (skip) return;
  // The default reserve lets the check fill about 1 GB of the 2 GB it claims; it keeps less.
  const realBytes = Math.round(((0.15 + 0.6 * random()) * 0.9e9) / 4096) * 4096;
  disk = makeFakeDisk(realBytes, 2 * 1024 ** 3);
  ui = await startUiSession('ui-capacity');
});

after(async () => {
  await ui?.close();
  disk?.remove();
});

test(
  'the Capacity check button fills the stick, reads it back, and says it stores less than it claims',
  { skip, timeout: 240_000 },
  async () => {
    const page = await ui!.openPage('#/bench', { colorScheme: 'light' });
    await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
    await page.getByLabel('Test files go in').fill(disk!.dir);
    await page.getByRole('button', { name: 'Use this folder' }).click();
    await page.getByText('Plumb writes into a new folder inside').waitFor();
    assert.equal(await page.getByLabel('Scale', { exact: true }).inputValue(), '0.01');
    await page.getByText('Capacity check', { exact: true }).click();
    // A capacity check proves only what it fills: always at full size, no scale offered.
    assert.equal(await page.getByLabel('Scale', { exact: true }).count(), 0);
    assert.equal(
      await page.getByLabel('Verify every byte afterwards').count(),
      0,
      'it always does',
    );
    const summary = page.getByText(/^Capacity check on .*: [\d.]+ [MG]B written, about /);
    await summary.waitFor();
    await ui!.shoot(page, 'capacity-setup');
    await page.getByRole('button', { name: 'Start test' }).click();

    const live = page.getByRole('article', { name: /^Capacity check on / });
    await live.getByText('Reading back', { exact: true }).waitFor({ timeout: 120_000 });
    const bar = live.getByRole('progressbar', { name: 'Progress' });
    const done = Number(await bar.getAttribute('aria-valuenow'));
    assert.ok(done >= 45 && done < 100, `the read-back starts about half way, not at ${done} %`);
    const nav = (await page.getByTestId('nav-run').textContent()) ?? '';
    assert.doesNotMatch(nav, /100 %/, nav);

    await page.getByText('Finished and saved to').waitFor({ timeout: 200_000 });
    const verdict = page.getByTestId('capacity-verdict');
    const words = (await verdict.textContent()) ?? '';
    assert.match(
      words,
      /^Capacity check failed: [\d.]+ [kMG]?B of [\d.]+ [MG]B read back wrong from .*: this drive .*\.$/,
    );
    assert.match(
      (await page.getByTestId('verify-verdict').textContent()) ?? '',
      /did not come back as written/,
    );
    await ui!.shoot(page, 'capacity-failed');
    assert.deepEqual(
      readdirSync(disk!.dir).filter((n) => n.startsWith('plumb-test-')),
      [],
      'the test files are gone',
    );
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);
