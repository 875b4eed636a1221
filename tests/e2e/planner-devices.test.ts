/**
 * The Planner's own devices and measured profiles, in real Chromium through `plumb serve`:
 * - add an SSD of your own (each wrong field says what to write), compare it in an option card
 *   and the chart, see its figures listed as yours, edit it, find it again after a reload and
 *   after a restart of `plumb serve`, delete it;
 * - a benchmark result saved by the bench engine (run against the pretend drive of the unit
 *   tests, for a cache cliff a disk here cannot show quickly) is offered as a measured profile,
 *   and its measured rates and cliff are what the card and the chart use.
 * Screenshots go to test-artifacts/planner-devices-*.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { ResultDocument } from '../../app/contract/bench-result.js';
import { planSchemaVersion } from '../../app/contract/plan.js';
import type { DeviceProfile } from '../../app/contract/planner.js';
import { interfaceCeilingById } from '../../app/core/analysis/interface-ceiling.js';
import { ResultsStore } from '../../app/core/bench/results-store.js';
import { runBenchmark } from '../../app/core/bench/runner.js';
import { profileFromResult } from '../../app/core/planner/profile-from-result.js';
import { formatGbPerSecond, formatSeconds, formatSize } from '../../app/common/format.js';
import { chromiumMissingReason, launchChromium, openAppPage } from '../helpers/chromium.js';
import { repoRoot, startServe } from '../helpers/cli.js';
import { FakeDrive } from '../helpers/fake-bench-io.js';

const artifacts = path.join(repoRoot, 'test-artifacts');
const noChromium = chromiumMissingReason();
if (noChromium) console.log(`# skipping planner devices browser test: ${noChromium}`);

let server: Awaited<ReturnType<typeof startServe>>;
let browser: Browser | undefined;
let dataDir: string;
let result: ResultDocument;
let measured: DeviceProfile;
const savedDataDir = process.env.PLUMB_DATA_DIR;

before(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-planner-devices-'));
  process.env.PLUMB_DATA_DIR = dataDir;
  const target = path.join(dataDir, 'target');
  mkdirSync(target);
  // The bench engine against the pretend drive: a 2 GB write cache at 2 GB/s, then 0.5 GB/s.
  result = await runBenchmark(
    {
      target,
      plan: {
        schema: planSchemaVersion,
        name: 'sustained',
        kind: 'sustained',
        minFileBytes: 20e6,
        maxFileBytes: 200e6,
        totalBytes: 6e9,
        timeLimitSeconds: null,
        recovery: { idleSeconds: 5, probeBytes: 100e6, maxProbes: 10 },
      },
      seed: 5,
      ceiling: interfaceCeilingById('usb3-gen2'),
      appVersion: 'test',
      signal: new AbortController().signal,
      store: new ResultsStore(path.join(dataDir, 'results')),
      reserve: { fraction: 0.1, minBytes: 0 },
    },
    new FakeDrive({ fastRate: 2e9, slowRate: 0.5e9, cacheBytes: 2e9, drainRate: 0.1e9 }),
  );
  assert.ok(
    result.findings.some((f) => f.kind === 'cliff'),
    'the run found the cliff',
  );
  measured = profileFromResult(result);
  assert.ok(measured.cacheBytes !== null && measured.afterCacheWriteBytesPerSecond !== null);
  server = await startServe();
  mkdirSync(artifacts, { recursive: true });
  if (!noChromium) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  if (savedDataDir === undefined) delete process.env.PLUMB_DATA_DIR;
  else process.env.PLUMB_DATA_DIR = savedDataDir;
  rmSync(dataDir, { recursive: true, force: true });
});

async function openPlanner(problems: string[]): Promise<Page> {
  const page = await openAppPage(browser!, server, {
    hash: '#/planner',
    viewport: { width: 1360, height: 1000 },
    problems,
    warnings: false,
  });
  await page.getByTestId('plan-option').nth(3).waitFor();
  return page;
}

/** Pixels of the chart's canvas within a small distance of `hex`: proof a series was drawn. */
async function pixelsOfColour(page: Page, hex: string): Promise<number> {
  type Canvas = {
    width: number;
    height: number;
    getContext(kind: '2d'): {
      getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
    } | null;
  };
  const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return page.locator('.plan-chart canvas').evaluate((element, [r, g, b]) => {
    const canvas = element as unknown as Canvas;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      const near =
        Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 40;
      if (near && data[i + 3]! > 200) count += 1;
    }
    return count;
  }, rgb);
}

async function chartRow(page: Page, option: string): Promise<string> {
  const details = page.locator('.plan-chart-data');
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  return details.getByRole('row', { name: option }).innerText();
}

const editorOf = (page: Page, name: RegExp): Locator => page.getByRole('form', { name });

test(
  'your own SSD: add with checked fields, compare, keep across reload and restart, delete',
  { skip: noChromium },
  async () => {
    const problems: string[] = [];
    let page = await openPlanner(problems);
    const mine = page.getByRole('region', { name: 'Your own SSDs' });
    await mine.getByText('None yet.').waitFor();

    // Saving an empty form names every field that needs a figure.
    await mine.getByRole('button', { name: 'Add an SSD' }).click();
    const editor = editorOf(page, /Add an SSD of your own/);
    await editor.getByRole('button', { name: 'Save this SSD' }).click();
    await editor.getByText('5 fields need a change before saving.').waitFor();
    const name = editor.getByLabel('Name', { exact: true });
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    await editor.getByText('give the device a name').waitFor();
    await editor.getByText('give a price; 0 if you already own it').waitFor();

    await name.fill('Test TB5 SSD');
    await editor.getByLabel('Capacity').fill('4000');
    await editor.getByLabel('Price (USD)').fill('$420');
    await editor.getByLabel('Interface').selectOption('tb5');
    await editor.getByLabel('Read rate').fill('6 GB/s');
    await editor.getByLabel('Write rate in the cache').fill('40 Gb/s');
    await editor.getByLabel('Write cache').selectOption('fixed');
    await editor.getByLabel('Cache size (empty disk)').fill('120 GB');
    await editor.getByLabel('Write rate after the cache').fill('1.6 GB/s');
    await editor.getByLabel('Cache recovery time').fill('3 min');
    await editor.getByLabel('Endurance').fill('2400 TBW');
    // Messages follow the typing: the unit-less capacity and the rate in bits are still wrong.
    await editor.getByText('add a unit, like "2 TB" or "500 GB"').waitFor();
    await editor.getByText('write bytes per second ("5.5 GB/s"), not bits ("Gb/s")').waitFor();
    await editor.getByText('2 fields need a change before saving.').waitFor();
    await page.screenshot({
      path: path.join(artifacts, 'planner-devices-editor-light.png'),
      fullPage: true,
    });
    await editor.getByLabel('Capacity').fill('4 TB');
    await editor.getByLabel('Write rate in the cache').fill('5 GB/s');
    assert.equal(await editor.locator('[aria-invalid="true"]').count(), 0);
    await editor.getByRole('button', { name: 'Save this SSD' }).click();
    await mine.getByText('Test TB5 SSD', { exact: true }).waitFor();
    await mine.getByText('writes 5.00 GB/s for 120 GB, then 1.60 GB/s').waitFor();
    assert.equal(await editorOf(page, /SSD/).count(), 0, 'the editor closes on save');

    // Compare it: a fifth option whose card and curve use the figures typed above.
    await mine.getByRole('button', { name: 'Compare Test TB5 SSD as a new option' }).click();
    const cards = page.getByTestId('plan-option');
    await cards.nth(4).waitFor();
    const card = cards.filter({ hasText: 'Test TB5 SSD (yours)' });
    await card.getByText('writes 5.00 GB/s for 120 GB → 1.60 GB/s after cache').waitFor();
    // 100 GB fits in the 120 GB cache: 100 GB ÷ 5 GB/s.
    assert.match(await card.innerText(), new RegExp(`\\$420\\b[\\s\\S]*${formatSeconds(20)}`));
    await card.locator('a.plan-source-ref[title$="(yours-1)"]').waitFor();
    const optionName = await card.locator('h3').innerText();
    const curve = await chartRow(page, optionName);
    assert.ok(
      curve.startsWith(`${optionName}\t5.00 GB/s up to 120 GB, then 1.60 GB/s\t`),
      `the chart's curve bends where the typed cache ends: ${curve}`,
    );
    assert.ok(
      (await pixelsOfColour(page, '#c2255c')) > 150,
      'the fifth option (plan colour 4) is drawn',
    );
    const sources = await page.locator('.plan-sources li[title="yours-1"]').innerText();
    assert.match(
      sources,
      /^Your figures for Test TB5 SSD\. capacity 4 TB, price \$420, read 6 GB\/s, write in the cache 5 GB\/s, write after the cache 1\.6 GB\/s, cache 120 GB, cache recovery 3 min 0 s, endurance 2400 TBW\./,
    );
    await page.screenshot({
      path: path.join(artifacts, 'planner-devices-light.png'),
      fullPage: true,
    });

    // A reload: the SSD is still saved and offered as the external SSD of any option.
    await page.reload();
    await page.getByTestId('plan-option').nth(3).waitFor();
    await mine.getByText('Test TB5 SSD', { exact: true }).waitFor();
    const fourth = page.locator('.plan-option-row').nth(3);
    const saved = JSON.parse(readFileSync(path.join(dataDir, 'planner-devices.json'), 'utf8')) as {
      devices: DeviceProfile[];
    };
    assert.deepEqual(
      saved.devices.map((d) => [d.name, d.capacityBytes, d.priceUsd, d.origin]),
      [['Test TB5 SSD', 4e12, 420, 'custom']],
    );
    const id = saved.devices[0]!.id;
    await fourth.getByLabel('External SSD').selectOption(id);
    // The option added before the reload is still there (unsaved edits are kept): look at the 4th.
    const fourthCard = page.getByRole('article', { name: /^Option 4: / });
    await fourthCard.filter({ hasText: 'Test TB5 SSD (yours)' }).waitFor();

    // Edit the price; a restart of plumb serve keeps the change.
    await mine.getByRole('button', { name: 'Edit Test TB5 SSD' }).click();
    const edit = editorOf(page, /Edit Test TB5 SSD/);
    assert.equal(await edit.getByLabel('Capacity').inputValue(), '4 TB');
    assert.equal(await edit.getByLabel('Cache recovery time').inputValue(), '3 min');
    await edit.getByLabel('Price (USD)').fill('399');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await mine.getByText(/\$399/).waitFor();
    await fourthCard.getByText('$399').waitFor();
    await page.close();
    await server.stop();
    server = await startServe();
    page = await openPlanner(problems);
    const mineAgain = page.getByRole('region', { name: 'Your own SSDs' });
    await mineAgain.getByText(/^4 TB · Thunderbolt 5 · \$399 · /).waitFor();

    // Delete it: the option that used it keeps its internal disk only, and it stays deleted.
    await page.locator('.plan-option-row').nth(3).getByLabel('External SSD').selectOption(id);
    await page.getByTestId('plan-option').filter({ hasText: 'Test TB5 SSD (yours)' }).waitFor();
    await mineAgain.getByRole('button', { name: 'Delete Test TB5 SSD' }).click();
    await mineAgain.getByText('None yet.').waitFor();
    assert.equal(
      await mineAgain.getByRole('status').innerText(),
      'Deleted Test TB5 SSD. Option 4 now has no external SSD.',
    );
    assert.equal(
      await page.locator('.plan-option-row').nth(3).getByLabel('External SSD').inputValue(),
      '',
    );
    await page
      .getByTestId('plan-option')
      .filter({ hasText: 'Test TB5 SSD' })
      .waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('plan-option').nth(3).waitFor();
    await page.getByRole('region', { name: 'Your own SSDs' }).getByText('None yet.').waitFor();
    assert.deepEqual(
      JSON.parse(readFileSync(path.join(dataDir, 'planner-devices.json'), 'utf8')).devices,
      [],
    );
    assert.deepEqual(problems, []);
    await page.close();
  },
);

test(
  'a saved benchmark result is a measured profile whose rates and cliff the plan uses',
  { skip: noChromium },
  async () => {
    const problems: string[] = [];
    const page = await openPlanner(problems);
    const row = page.locator('.plan-option-row').nth(3);
    const select = row.getByLabel('External SSD');
    // Offered among the measured profiles, by the id of the result.
    assert.equal(
      await select
        .locator('optgroup[label="Measured by Plumb"] option')
        .evaluate((o) => (o as unknown as { value: string }).value),
      `result:${result.id}`,
    );
    await select.selectOption(`result:${result.id}`);
    await row.getByLabel('Option 4', { exact: true }).fill('Measured SSD');

    const card = page.getByTestId('plan-option').filter({ hasText: 'Measured SSD' });
    const cache = measured.cacheBytes!;
    const before = measured.writeBytesPerSecond;
    const afterCliff = measured.afterCacheWriteBytesPerSecond!;
    await card
      .getByText(
        `writes ${formatGbPerSecond(before)} for ${formatSize(cache)} → ${formatGbPerSecond(afterCliff)} after cache`,
      )
      .waitFor();
    assert.match(await card.innerText(), /\(measured\)/);
    // The default 100 GB import: the measured cache at its rate, the rest after the cliff.
    const seconds = cache / before + (100e9 - cache) / afterCliff;
    const burst = card.locator('.plan-bursts li').first();
    assert.equal(await burst.locator('.plan-burst-time').innerText(), formatSeconds(seconds));
    await card.locator(`a.plan-source-ref[title$="(result:${result.id})"]`).waitFor();

    const chart = await chartRow(page, 'Measured SSD');
    const corner = `${formatGbPerSecond(before)} up to ${formatSize(cache)}, then ${formatGbPerSecond(afterCliff)}`;
    assert.ok(chart.includes(corner), `the chart's curve bends at the measured cliff: ${chart}`);
    assert.match(
      await page.locator(`.plan-sources li[title="result:${result.id}"]`).innerText(),
      /^Measured by Plumb: /,
    );

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(200);
    await page.screenshot({
      path: path.join(artifacts, 'planner-devices-dark.png'),
      fullPage: true,
    });
    assert.deepEqual(problems, []);
    await page.close();
  },
);
