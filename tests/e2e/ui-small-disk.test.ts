/**
 * A disk far under 20 GB, as a USB stick or an SD card is, tested from the Volumes home in real
 * Chromium: the default guard refuses a test that would leave too little free and says exactly
 * what would work; the user sets "Keep free on the disk" to that, and the test runs to its end.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { parseSize } from '../../app/common/units.js';
import { chromiumMissingReason, launchChromium, openAppPage } from '../helpers/chromium.js';
import { repoRoot, startServe } from '../helpers/cli.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';

const skip = chromiumMissingReason() ?? loopSkipReason('ext4');
if (skip) console.log(`# skipping the small-disk test: ${skip}`);

const artifacts = path.join(repoRoot, 'test-artifacts');
let server: Awaited<ReturnType<typeof startServe>>;
let browser: Browser | undefined;
let dataDir: string;
let stick: MountedFs | undefined;
const problems: string[] = [];

before(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-small-data-'));
  mkdirSync(artifacts, { recursive: true });
  process.env.PLUMB_DATA_DIR = dataDir;
  if (skip) return;
  // 0.9 to 1.3 GB: under the default reserve's 1 GB floor once the file system takes its share,
  // so the default refuses even the quick test; drawn at random so no figure is known in advance.
  stick = mountLoopFs('ext4', { sizeBytes: Math.round((900 + Math.random() * 400) * 1e6) });
  server = await startServe();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  stick?.unmount();
  rmSync(dataDir, { recursive: true, force: true });
});

test(
  'a small disk refused by the default guard runs with the reserve the refusal names',
  {
    skip,
    timeout: 120_000,
  },
  async () => {
    const page = await openAppPage(browser!, server, { hash: '', problems });
    const card = page.getByRole('listitem').filter({ hasText: stick!.dir });
    await card.getByRole('button', { name: /^Test this disk/ }).click();
    await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
    await page.getByText('Standard', { exact: true }).click();
    assert.equal(await page.getByLabel('Scale', { exact: true }).inputValue(), '0.01');

    // Refused, with what would work in words: no quicker scale offered (quick is chosen already).
    const refusal = page.locator('.banner-error').filter({ hasText: 'Not enough free space' });
    await refusal.waitFor();
    const said = (await refusal.textContent()) ?? '';
    assert.doesNotMatch(said, /choose the scale/, 'no quicker scale to offer');
    const offered = /set “Keep free on the disk” to ([\d.]+ [KMG]B) or less/.exec(said);
    assert.ok(offered, `the refusal names a reserve that would work: ${said}`);
    assert.equal(await page.getByRole('button', { name: 'Start test' }).isDisabled(), true);
    await page.screenshot({ path: path.join(artifacts, 'small-disk-refused.png'), fullPage: true });

    // The user does what it says.
    await page.getByText('Advanced', { exact: true }).click();
    await page.getByLabel('Keep free on the disk').fill(offered[1]!);
    await refusal.waitFor({ state: 'detached' });
    await page.screenshot({
      path: path.join(artifacts, 'small-disk-reserve-set.png'),
      fullPage: true,
    });
    const before = statfsSync(stick!.dir);
    await page.getByRole('button', { name: 'Start test' }).click();
    await page.getByRole('button', { name: 'New test' }).waitFor({ timeout: 90_000 });
    await page.screenshot({
      path: path.join(artifacts, 'small-disk-finished.png'),
      fullPage: true,
    });
    assert.equal(await page.getByRole('alert').count(), 0, 'the run did not fail');
    const after = statfsSync(stick!.dir);
    assert.ok(after.bavail * after.bsize >= before.bavail * before.bsize * 0.99, 'files removed');
    assert.ok(parseSize(offered[1]!)! >= 256e6, 'never below the floor');
    assert.deepEqual(
      readdirSync(stick!.dir).filter((n) => n.startsWith('plumb-test-')),
      [],
    );
    assert.deepEqual(problems, []);
    await page.close();
  },
);
