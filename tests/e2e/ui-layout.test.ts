/**
 * Every screen from the desktop window's minimum (800×600) up, in real Chromium through `plumb
 * serve`, with real data: results of quick real benches, a scan of real copies, a sparse file, a
 * plan. On each screen the page is measured, and any content clipped by its box or pushed past
 * the window without a scroll box of its own fails the test, naming the element.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { runPlumb } from '../helpers/cli.js';
import { clippedContent } from '../helpers/overflow.js';
import { holeFile, plainCopy, randomFile } from '../helpers/space-files.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const skip = chromiumMissingReason();
if (skip) console.log(`# skipping the layout tests: ${skip}`);

let ui: UiSession;
let target: string;
let copies: string;
let sparse: string;
const ids = { standard: '', other: '', grid: '' };

/** A quick real bench of `plan` on the target folder; resolves with its result's id. */
function bench(plan: string): string {
  const run = runPlumb(['bench', target, '--plan', plan, '--scale', '0.01']);
  assert.equal(run.status, 0, run.stderr);
  const id = /Saved as (\S+)/.exec(run.stdout)?.[1];
  assert.ok(id, run.stdout);
  return id;
}

before(async () => {
  if (skip) return;
  ui = await startUiSession('layout');
  target = path.join(ui.work, 'target');
  mkdirSync(target);
  ids.standard = bench('standard');
  ids.other = bench('standard');
  ids.grid = bench('presets');
  // Copies of random sizes in nested folders with long names, and a sparse disk image.
  copies = path.join(ui.work, 'a folder with a rather long name', 'Pictures from the holidays');
  const size = () => Math.round((0.2 + Math.random()) * 1024 * 1024);
  const photo = randomFile(path.join(copies, 'DSC_0042 — the lake at sunset, edited.raw'), size());
  plainCopy(photo, path.join(copies, 'backup', 'second copy of the backup', 'DSC_0042 copy.raw'));
  const clip = randomFile(path.join(copies, 'clip.mov'), size());
  plainCopy(clip, path.join(copies, 'old', 'clip (1).mov'));
  sparse = path.join(ui.work, 'images');
  holeFile(path.join(sparse, 'virtual machine disk image.img'), 64 * 1024 * 1024);
  randomFile(path.join(sparse, 'notes.txt'), 4096);
});

after(async () => {
  await ui?.close();
});

const sizes = [
  { width: 800, height: 600 },
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
  { width: 3840, height: 2160 }, // a 4K display at 100 %
] as const;

const go = (page: Page, hash: string) =>
  page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);

/** Each screen as a user reaches it, left in the state to measure. */
const screens: { name: string; show(page: Page): Promise<void> }[] = [
  {
    name: 'home',
    async show(page) {
      await page.getByRole('list', { name: 'Your disks' }).getByRole('listitem').first().waitFor();
    },
  },
  {
    name: 'setup',
    async show(page) {
      await go(page, '#/bench');
      await page.getByLabel('Test files go in').fill(target);
      await page.getByRole('button', { name: 'Use this folder' }).click();
      await page.getByText('Standard', { exact: true }).click();
      await page.getByText(/^Standard on .*: .* written, about /).waitFor();
    },
  },
  {
    name: 'live',
    async show(page) {
      await page.getByRole('button', { name: 'Start test' }).click();
      await page.getByRole('article', { name: /^Standard on / }).waitFor();
      await page.getByText('Points appear as each file finishes.').waitFor({ state: 'hidden' });
    },
  },
  {
    name: 'result',
    async show(page) {
      await page.getByText('Finished and saved to').waitFor({ timeout: 180_000 });
      await go(page, `#/results/${ids.standard}`);
      const verdict = page.getByRole('article', { name: /^Verdict: Standard/ });
      await verdict.waitFor();
      // The method table and the files, one click away, measured open.
      await verdict.getByText('Details: every statistic and every file').click();
      await verdict.getByRole('table', { name: 'Summary by method' }).waitFor();
      await verdict.getByRole('table', { name: 'Files' }).waitFor();
    },
  },
  {
    name: 'live-grid',
    async show(page) {
      await go(page, '#/bench');
      await page.getByRole('button', { name: 'New test' }).click();
      await page.getByText('Queue-depth grid', { exact: true }).click();
      await page.getByRole('button', { name: 'Start test' }).click();
      await page.getByRole('cell', { name: /^SEQ1M Q8T1 read: \d/ }).waitFor({ timeout: 60_000 });
      // No test files in a queue-depth run: no "Written 0 B", no file count.
      assert.equal(await page.getByTestId('live-written').isVisible(), false);
      assert.equal(await page.getByTestId('live-files').isVisible(), false);
    },
  },
  {
    name: 'grid',
    async show(page) {
      await go(page, `#/results/${ids.grid}`);
      await page.getByRole('region', { name: 'Queue-depth grid' }).waitFor();
    },
  },
  {
    name: 'compare',
    async show(page) {
      await go(page, `#/results/compare/${ids.standard},${ids.other}`);
      await page.getByRole('heading', { name: 'Comparing 2 results' }).waitFor();
    },
  },
  {
    name: 'history',
    async show(page) {
      await go(page, '#/results');
      await page
        .getByRole('checkbox', { name: /^Select .* to compare$/ })
        .first()
        .waitFor();
    },
  },
  {
    name: 'duplicates',
    async show(page) {
      await go(page, '#/space');
      await page.getByLabel('Folder to look for copies in').fill(copies);
      await page.getByRole('button', { name: 'Scan', exact: true }).click();
      await page.getByRole('table', { name: 'Duplicate groups' }).waitFor({ timeout: 60_000 });
      await page.getByRole('checkbox', { name: /^Select clip\.mov/ }).check();
      // Free space in the words of the Volumes home.
      assert.match(
        (await page.getByTestId('free-space').textContent()) ?? '',
        /^On this volume: \d[\d.]* [kMGT]?B free of \d[\d.]* [kMGT]?B$/,
      );
    },
  },
  {
    name: 'trash',
    async show(page) {
      await page.getByRole('button', { name: 'Move copies to Trash…' }).click();
      const dialog = page.getByRole('dialog', { name: /^Move copies to the / });
      await dialog.waitFor();
      assert.doesNotMatch((await dialog.textContent()) ?? '', /FIDEDUPERANGE|inode|errno/i);
    },
  },
  {
    name: 'sparse',
    async show(page) {
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('tab', { name: 'Sparse files' }).click();
      await page.getByLabel('Folder to list sparse files in').fill(sparse);
      await page.getByRole('button', { name: 'List sparse files' }).click();
      await page.getByText('virtual machine disk image.img').first().waitFor({ timeout: 60_000 });
    },
  },
  {
    name: 'planner',
    async show(page) {
      await go(page, '#/planner');
      await page.getByRole('button', { name: 'Compare options' }).click();
      await page.getByRole('heading', { name: 'The options side by side' }).waitFor();
      assert.doesNotMatch(await page.locator('main').innerText(), /\[seed-\d+\]/);
    },
  },
];

async function visitEverything(
  viewport: { width: number; height: number },
  colorScheme: 'light' | 'dark',
): Promise<string[]> {
  const page = await ui.openPage('', { viewport, colorScheme });
  const suffix = `${viewport.width}x${viewport.height}${colorScheme === 'dark' ? '-dark' : ''}`;
  const clipped: string[] = [];
  for (const screen of screens) {
    try {
      await screen.show(page);
    } catch (error) {
      // What the page showed, so a failure in CI says why (a step's wait names only what it missed).
      const shot = await ui.shoot(page, `layout-${screen.name}-${suffix}-failed`).catch(() => '');
      const text = await page
        .locator('main')
        .innerText({ timeout: 2000 })
        .catch(() => '(none)');
      throw new Error(
        `${screen.name} at ${suffix}: ${(error as Error).message}\nThe page said: ${text.slice(0, 1200)}\nProblems: ${ui.problems.join('; ') || 'none'}\nScreenshot: ${shot}`,
        { cause: error },
      );
    }
    await page.waitForTimeout(300); // charts and tables settle to the width they were given
    for (const problem of await clippedContent(page)) clipped.push(`${screen.name}: ${problem}`);
    await ui.shoot(page, `layout-${screen.name}-${suffix}`);
  }
  await page.close();
  return clipped;
}

for (const viewport of sizes) {
  test(
    `every screen at ${viewport.width}×${viewport.height} shows all its content`,
    { skip, timeout: 300_000 },
    async () => {
      assert.deepEqual(await visitEverything(viewport, 'light'), []);
      assert.deepEqual(ui.problems, []);
    },
  );
}

test(
  'every screen in dark mode at 1024×700 shows all its content',
  { skip, timeout: 300_000 },
  async () => {
    assert.deepEqual(await visitEverything({ width: 1024, height: 700 }, 'dark'), []);
    assert.deepEqual(ui.problems, []);
  },
);

/** Inline style through the CSSOM (the app's content policy refuses style tags). */
const setStyle = (element: Locator, css: string) =>
  element.evaluate((el: { style: { cssText: string } }, text) => {
    el.style.cssText = text;
  }, css);

test('the measure names what a narrow box would clip or push out', { skip }, async () => {
  const page = await ui.openPage(`#/results/${ids.grid}`, {
    viewport: { width: 1024, height: 700 },
  });
  await page.getByRole('region', { name: 'Queue-depth grid' }).waitFor();
  assert.deepEqual(await clippedContent(page), []);
  // The grid as it was drawn before: its card beside the chart, too narrow, hiding its overflow.
  const grid = page.getByRole('region', { name: 'Queue-depth grid' });
  await setStyle(grid, 'overflow: hidden; width: 220px');
  // (The grid's table now scrolls sideways in its own box: without it, as before.)
  await setStyle(grid.locator('.grid-scroll'), 'overflow: visible');
  await setStyle(page.locator('.verdict-title'), 'position: relative; left: 1100px');
  const said = await clippedContent(page);
  assert.ok(
    said.some((line) =>
      /^<section\.card\.grid-card "Queue-depth grid"> .* clips \d+px across$/.test(line),
    ),
    said.join('\n'),
  );
  assert.ok(
    said.some((line) => /^<h2\.verdict-title> .* past the window$/.test(line)),
    said.join('\n'),
  );
  await setStyle(grid, 'overflow: visible; width: 220px');
  const spilt = await clippedContent(page);
  assert.ok(
    spilt.some((line) => /grid-(card|scroll).* spills \d+px out of its box$/.test(line)),
    `content over its neighbour is found too: ${spilt.join('\n')}`,
  );
  await page.close();
});
