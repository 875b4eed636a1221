/**
 * The first screen and moving between sections, in real Chromium through `plumb serve`: the
 * Volumes home lists the disks (a small loop-mounted ext4 volume among them) and leads to a test
 * or a scan with that disk's folder; every section keeps its work while the user goes elsewhere;
 * a running test shows in the sidebar; "New test" and a restart keep the folder.
 */
import assert from 'node:assert/strict';
import { mkdirSync, statfsSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { formatBytes } from '../../app/common/format.js';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { plainCopy, randomFile } from '../helpers/space-files.js';

const skip = chromiumMissingReason() ?? loopSkipReason('ext4');
if (skip) console.log(`# skipping the Volumes home tests: ${skip}`);

let ui: UiSession | undefined;
let small: MountedFs | undefined;

before(async () => {
  if (skip) return;
  // A volume far under 20 GB, as a USB stick or an SD card would be: 1 GiB, drawn at random
  // between 600 MiB and 1.2 GiB so the figures on screen are not ones the test could know.
  const sizeBytes = Math.round((600 + Math.random() * 600) * 1024 * 1024);
  small = mountLoopFs('ext4', { sizeBytes });
  ui = await startUiSession('home');
});

after(async () => {
  await ui?.close();
  small?.unmount();
});

function openPage(hash: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  return ui!.openPage(hash, { colorScheme });
}

async function shoot(page: Page, name: string): Promise<void> {
  await ui!.shoot(page, name);
}

const nav = (page: Page, title: string) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: title }).click();

test(
  'the first screen lists the disks and leads to a test or a scan on one',
  { skip },
  async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await openPage('', scheme);
      await page.getByRole('heading', { name: 'Your disks' }).waitFor();
      const list = page.getByRole('list', { name: 'Your disks' });
      await list.getByRole('listitem').first().waitFor();

      // The system volume and the small stick, each with size, one free figure, bus and file system.
      const card = list.getByRole('listitem').filter({ hasText: small!.dir });
      assert.equal(await card.count(), 1, 'the loop volume is listed once');
      const stats = statfsSync(small!.dir);
      const free = formatBytes(stats.bavail * stats.bsize);
      const total = formatBytes(stats.blocks * stats.bsize);
      assert.equal(
        await card.getByTestId('volume-space').textContent(),
        `${free} free of ${total}`,
      );
      assert.equal(await card.getByTitle('File system').textContent(), 'ext4');
      await card.getByText(/Bus not reported|[A-Z]+ · |Internal|External/).waitFor();
      const system = list.getByRole('listitem').filter({ has: page.getByText('System (/)') });
      assert.equal(await system.count(), 1, 'the system volume is listed');
      assert.ok(
        (await list.getByRole('listitem').allTextContents()).every(
          (t) => !/tmpfs|proc|cgroup/.test(t),
        ),
        'no pseudo file systems',
      );
      if (scheme === 'light') await shoot(page, 'home-after');
      else await shoot(page, 'home-after-dark');
      await page.close();
    }

    const page = await openPage('');
    const card = page.getByRole('listitem').filter({ hasText: small!.dir });
    await card.getByRole('button', { name: /^Test this disk/ }).click();
    await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
    assert.equal(await page.getByLabel('Test files go in').inputValue(), small!.dir);
    await page.getByText('Plumb writes into a new folder inside').waitFor();
    // The volume and the default plan; the volume's radio is checked once the list has loaded
    // (a busy machine took longer than this line did to get there).
    const checked = page.getByRole('radio', { checked: true });
    for (let waited = 0; (await checked.count()) < 2 && waited < 10_000; waited += 100)
      await page.waitForTimeout(100);
    assert.equal(await checked.count(), 2, 'the stick is the chosen volume');

    // Left on the Sparse files tab, Reclaim space comes back on Duplicates with the folder in it.
    await nav(page, 'Reclaim space');
    await page.getByRole('tab', { name: 'Sparse files' }).click();
    await nav(page, 'Volumes');
    await card.getByRole('button', { name: /^Reclaim space here/ }).click();
    await page.getByRole('heading', { name: 'Reclaim space' }).waitFor();
    await page.getByLabel('Folder to look for copies in').waitFor(); // visible: the tab switched
    assert.equal(await page.getByLabel('Folder to look for copies in').inputValue(), small!.dir);
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);

test(
  'every section keeps its work, a running test shows in the sidebar, the folder is kept',
  { skip, timeout: 120_000 },
  async () => {
    const copies = path.join(ui!.work, 'copies');
    mkdirSync(copies);
    const original = randomFile(path.join(copies, 'photo.raw'), 3 * 1024 * 1024);
    plainCopy(original, path.join(copies, 'photo copy.raw'));
    const testFolder = path.join(ui!.work, 'bench');
    mkdirSync(testFolder);

    const page = await openPage('#/space');
    await page.getByLabel('Folder to look for copies in').fill(copies);
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    const groups = page.getByRole('table', { name: 'Duplicate groups' });
    await groups.waitFor({ timeout: 30_000 });

    await nav(page, 'Planner');
    const prefer = page.getByLabel('What matters most');
    await prefer.waitFor();
    const other = (await prefer.inputValue()) === 'cost' ? 'speed' : 'cost';
    await prefer.selectOption(other);

    await nav(page, 'Test a disk');
    await page.getByLabel('Test files go in').fill(testFolder);
    await page.getByRole('button', { name: 'Use this folder' }).click();
    await page.getByText('Plumb writes into a new folder inside').waitFor();
    await page.getByText('Standard', { exact: true }).click();
    await page.getByRole('button', { name: 'Start test' }).click();
    await page.getByRole('button', { name: 'Cancel test' }).waitFor();

    // Elsewhere, the sidebar says a test runs; each section is as it was left.
    await nav(page, 'Results');
    const sidebarRun = page.getByTestId('nav-run');
    await sidebarRun.getByText(/^Testing Standard/).waitFor();
    await nav(page, 'Reclaim space');
    assert.ok(await groups.isVisible(), 'the scan is still shown');
    assert.equal(await page.getByLabel('Folder to look for copies in').inputValue(), copies);
    await nav(page, 'Planner');
    assert.equal(await prefer.inputValue(), other, 'the planner form kept its choice');
    await shoot(page, 'home-sidebar-running');

    await nav(page, 'Test a disk');
    await page.getByRole('button', { name: 'Cancel test' }).click();
    await page.getByRole('button', { name: 'New test' }).click();
    assert.equal(await page.getByLabel('Test files go in').inputValue(), testFolder);
    await page.getByText('Plumb writes into a new folder inside').waitFor();
    assert.equal(await sidebarRun.count(), 0, 'nothing shown once dismissed');

    // A restart (a reload here) opens "Test a disk" with the last folder tested.
    await page.reload();
    await nav(page, 'Test a disk');
    await page.getByText('Plumb writes into a new folder inside').waitFor();
    assert.equal(await page.getByLabel('Test files go in').inputValue(), testFolder);
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);
