/**
 * The Planner view in real Chromium through `plumb serve`: defaults load, the option cards and the
 * crossover chart are drawn, the form re-plans, every control has a label, no console errors.
 * Screenshots (light and dark) go to test-artifacts/planner-*.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissingReason, launchChromium, openAppPage } from '../helpers/chromium.js';
import { repoRoot, startServe } from '../helpers/cli.js';

const artifacts = path.join(repoRoot, 'test-artifacts');
const noChromium = chromiumMissingReason();
if (noChromium) console.log(`# skipping planner browser test: ${noChromium}`);

let server: Awaited<ReturnType<typeof startServe>>;
let browser: Browser | undefined;
let dataDir: string;
const savedDataDir = process.env.PLUMB_DATA_DIR;

before(async () => {
  // An empty data folder: the defaults must not depend on results saved on this machine.
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-planner-e2e-'));
  process.env.PLUMB_DATA_DIR = dataDir;
  server = await startServe();
  mkdirSync(artifacts, { recursive: true });
  if (!noChromium) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server.stop();
  if (savedDataDir === undefined) delete process.env.PLUMB_DATA_DIR;
  else process.env.PLUMB_DATA_DIR = savedDataDir;
  rmSync(dataDir, { recursive: true, force: true });
});

/** Non-transparent pixels on the chart's canvas: proof it was drawn, not just placed. */
async function paintedPixels(page: Page): Promise<number> {
  // The Node type-check has no DOM library, so the browser objects are described by their use.
  type Canvas = {
    width: number;
    height: number;
    getContext(kind: '2d'): {
      getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
    } | null;
  };
  return page.locator('.plan-chart canvas').evaluate((element) => {
    const canvas = element as unknown as Canvas;
    const context = canvas.getContext('2d');
    if (!context) return 0;
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let painted = 0;
    for (let index = 3; index < data.length; index += 4) if (data[index]! > 0) painted += 1;
    return painted;
  });
}

test(
  'the Planner view compares the options with cards, a chart and a recommendation',
  { skip: noChromium },
  async () => {
    const problems: string[] = [];
    const page = await openAppPage(browser!, server, {
      hash: '#/planner',
      viewport: { width: 1360, height: 1000 },
      problems,
      warnings: false,
    });

    await page
      .getByRole('heading', { name: 'Bigger internal SSD, or external storage?' })
      .waitFor();
    const cards = page.getByTestId('plan-option');
    await cards.nth(3).waitFor();
    assert.equal(await cards.count(), 4);
    // The seed 003 figures for the default 100 GB import, on the TB5 and the USB4 SSD.
    const tb5 = cards.filter({ hasText: 'TB5 SSD' });
    const usb4 = cards.filter({ hasText: 'USB4 SSD' });
    assert.match(await tb5.innerText(), /44\.8 s/);
    assert.match(await usb4.innerText(), /27\.0 s/);
    await page.getByRole('heading', { name: /^Choose / }).waitFor();
    const painted = await paintedPixels(page);
    assert.ok(painted > 2000, `the crossover chart is drawn (${painted} pixels)`);
    assert.match(await page.locator('.plan-chart figcaption').innerText(), /overtakes/);
    assert.match(await page.locator('.plan-sources').innerText(), /Why SSDs slow down/);
    // Sources are numbered references, the catalogue's ids only in their tooltips.
    assert.doesNotMatch(await page.locator('main').innerText(), /\[seed-\d+\]/);

    // Every control in the form has a label, and the keyboard reaches the first one.
    type Control = { labels: { length: number } | null; outerHTML: string };
    const unlabelled = await page
      .locator('.plan-form input, .plan-form select')
      .evaluateAll((elements) =>
        elements
          .filter(
            (e) =>
              ((e as unknown as Control).labels?.length ?? 0) === 0 &&
              !e.getAttribute('aria-label'),
          )
          .map((e) => (e as unknown as Control).outerHTML),
      );
    assert.deepEqual(unlabelled, []);
    await page.getByLabel('Computer', { exact: true }).focus();
    await page.keyboard.press('Tab');
    assert.equal(
      await page
        .locator(':focus')
        .evaluate(
          (e) => (e as unknown as { labels: { textContent: string }[] }).labels[0]?.textContent,
        ),
      'Fastest port for the external disk',
    );

    await page.screenshot({ path: path.join(artifacts, 'planner-light.png'), fullPage: true });

    // Fill the form: speed first, and an Intel Mac, whose TB5 SSD falls back to ~1 GB/s.
    await page.getByLabel('What matters most').selectOption('speed');
    await page.getByRole('heading', { name: 'Choose 2 TB internal.' }).waitFor();
    await page.getByLabel('Computer', { exact: true }).selectOption('intel-mac');
    await page.getByLabel('Could move out').fill('900');
    await tb5.getByText(/falls back to USB 3\.2 Gen 2/).waitFor();
    assert.equal(await page.getByLabel('Fastest port for the external disk').inputValue(), 'tb3');

    await page.getByLabel('Computer', { exact: true }).selectOption('apple-silicon');
    await page.getByLabel('Fastest port for the external disk').selectOption('tb5');
    await page.getByLabel('What matters most').selectOption('cost');
    await page.getByRole('heading', { name: /^Choose 512 GB/ }).waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(200);
    assert.ok((await paintedPixels(page)) > 2000, 'the chart is redrawn in dark mode');
    await page.screenshot({ path: path.join(artifacts, 'planner-dark.png'), fullPage: true });

    // A name Plumb gave follows the disk chosen in its place; a name the user typed stays.
    const name2 = page.getByLabel('Option 2', { exact: true });
    assert.equal(await name2.inputValue(), '512 GB + TB5 SSD');
    await page.getByLabel('External SSD').nth(1).selectOption('samsung-t9-4tb');
    assert.equal(await name2.inputValue(), '512 GB + USB 3.2 2x2 SSD');
    const name3 = page.getByLabel('Option 3', { exact: true });
    await name3.fill('My travel disk');
    await page.getByLabel('External SSD').nth(2).selectOption('tb5-2tb');
    assert.equal(await name3.inputValue(), 'My travel disk');

    assert.deepEqual(problems, []);
    await page.close();
  },
);
