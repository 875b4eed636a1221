/**
 * What CrystalDiskMark and Blackmagic users look for, in real Chromium through `plumb serve` on a
 * real temporary folder: the one-button speed test ending with one read and one write figure
 * (focus on the live view after Start), the grid's test size and count (the saved plan shows
 * them), MB/s or IOPS, copying the grid as text and as a PNG, and charts zoomed by a dragged box
 * and reset. Screenshots of the one-button result and the grid go to test-artifacts/.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { formatBytes, formatRate } from '../../app/common/format.js';
import { headlineRates } from '../../app/common/headline-rate.js';
import type { ResultDocument } from '../../app/contract/bench-result.js';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { artifactsDir, startUiSession, type UiSession } from '../helpers/ui-session.js';

const noChromium = chromiumMissingReason();
if (noChromium) console.log(`# skipping the grid and one-button UI tests: ${noChromium}`);

const MiB = 1024 * 1024;
let ui: UiSession | undefined;
let folder: string;

before(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'plumb-grid-target-'));
  if (!noChromium) ui = await startUiSession('grid');
});

after(async () => {
  await ui?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function shoot(page: Page, name: string): Promise<void> {
  await ui!.shoot(page, `ui-${name}`);
}

/** Chooses the folder on "Test a disk", as a user types it. */
async function chooseFolder(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
  await page.getByLabel('Test files go in').fill(folder);
  await page.getByRole('button', { name: 'Use this folder' }).click();
  await page.getByText('Plumb writes into a new folder inside').waitFor();
}

/** The saved result of `runId`… as the results folder holds it (newest of `plan` here). */
function savedResult(plan: string): ResultDocument {
  const dir = path.join(ui!.work, 'data', 'results');
  const documents = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as ResultDocument)
    .filter((d) => d.plan.name === plan)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  assert.ok(documents.length > 0, `a saved ${plan} result in ${dir}`);
  return documents.at(-1)!;
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

test(
  'one button runs the standard test and ends with one read and one write figure',
  { skip: noChromium, timeout: 300_000 },
  async () => {
    const page = await ui!.openPage('#/bench');
    await chooseFolder(page);
    // The user's scale, as the options show it by default (quick).
    assert.equal(await page.getByLabel('Scale', { exact: true }).inputValue(), '0.01');
    const button = page.getByRole('button', { name: 'Run speed test' });
    await page.getByText(/Writes .+ and reads it back, about /).waitFor();
    await shoot(page, 'speed-test-setup');
    await button.focus();
    await page.keyboard.press('Enter');

    const live = page.getByTestId('live-view');
    await live.waitFor();
    await page.locator('[data-testid="live-view"]:focus').waitFor();
    assert.match((await live.getByRole('status').first().textContent()) ?? '', /^Standard /);

    const write = page.getByTestId('speed-write');
    const read = page.getByTestId('speed-read');
    await read.waitFor({ timeout: 240_000 });
    const figures = [await write.textContent(), await read.textContent()];
    for (const figure of figures) assert.match(figure ?? '', /^[\d.]+ [kMG]?B\/s$/);
    assert.equal(await page.locator('.speed-figure').count(), 2, 'one read and one write figure');
    // The figures are the saved run's headline rates, and the verdict is one click away.
    const saved = savedResult('standard');
    const headline = headlineRates(saved);
    assert.ok(headline.write! > 0 && headline.read! > 0);
    assert.deepEqual(figures, [formatRate(headline.write), formatRate(headline.read)]);
    // A run that stayed within a cache says so beside the figures.
    const withinCache = saved.findings.some((f) => f.kind === 'within-cache');
    assert.equal(await page.getByTestId('speed-caveat').count(), withinCache ? 1 : 0);
    assert.equal(saved.files.filter((f) => f.phase === 'read').length, 160);
    await shoot(page, 'speed-test-result');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, 'speed-test-result-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 800, height: 600 });
    await shoot(page, 'speed-test-result-800');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'See the verdict and details' }).click();
    await page.getByRole('article', { name: /^Verdict: Standard/ }).waitFor();
    assert.match(page.url(), new RegExp(`#/results/${encodeURIComponent(saved.id)}$`));
    assert.deepEqual(readdirSync(folder), [], 'the test files are gone');
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);

test(
  'the grid runs with the chosen size and count, switches units, copies as text and image, zooms',
  { skip: noChromium, timeout: 300_000 },
  async () => {
    const page = await ui!.openPage('#/bench');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(page.url()).origin,
    });
    await chooseFolder(page);
    await page.getByText('Queue-depth grid', { exact: true }).click();
    const estimate = page
      .locator('.plan-choice', { hasText: 'Queue-depth grid' })
      .locator('.choice-estimate');
    const before = await estimate.textContent();
    // Too small a file for a 1 MiB block at the quick scale: refused in words, before Start.
    await page.getByLabel('Test size').selectOption(String(16 * MiB));
    await page
      .getByRole('alert')
      .getByText(/test file would be .*: choose a test size of 128 MiB or more, or a larger scale/)
      .waitFor();
    assert.equal(await page.getByRole('button', { name: 'Start test' }).isDisabled(), true);
    const size = pick([128, 256, 512, 2048]);
    const count = pick([2, 3]);
    console.log(`# grid: test size ${size} MiB, count ${count}`);
    await page.getByLabel('Test size').selectOption(String(size * MiB));
    await page.getByLabel('Count', { exact: true }).selectOption(String(count));
    // The estimate on the grid's card follows the size and count.
    for (let tries = 0; (await estimate.textContent()) === before; tries += 1) {
      assert.ok(tries < 50, `the estimate stayed "${before}"`);
      await page.waitForTimeout(100);
    }
    await page.getByRole('button', { name: 'Start test' }).click();
    // Start (a form submit, this time) also hands focus to the live view.
    await page.locator('[data-testid="live-view"]:focus').waitFor();
    await page.getByText('Finished and saved to').waitFor({ timeout: 240_000 });
    const verdict = page.getByRole('article', { name: /^Verdict: Queue-depth grid/ });
    await verdict.waitFor();

    // What ran is what was chosen: the size (at the quick scale) and each test `count` times.
    const saved = savedResult('presets');
    const plan = saved.plan as unknown as { fileBytes: number; runs: { name: string }[] };
    const scaled = Math.max(4096, Math.round((size * MiB * 0.01) / 4096) * 4096);
    assert.equal(plan.fileBytes, scaled);
    assert.equal(plan.runs.length, 8 * count);
    assert.equal(saved.runs!.length, 8 * count);

    const grid = verdict.getByRole('table', { name: 'Queue-depth results' });
    const best = (name: string) =>
      Math.max(
        ...saved.runs!.filter((r) => r.name.startsWith(`${name} `)).map((r) => r.bytesPerSecond),
      );
    const seqRead = grid.getByRole('cell', { name: /^SEQ1M Q8T1 read: / });
    const mbs = (await seqRead.locator('.grid-value').textContent()) ?? '';
    assert.equal(mbs, (best('SEQ1M Q8T1 read') / 1e6).toFixed(2), 'the best pass, in MB/s');
    await shoot(page, 'grid-mbs');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, 'grid-mbs-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    // Nothing of the grid is cut off in a small window: the table fits its card.
    for (const [width, height] of [
      [1024, 700],
      [800, 600],
    ] as const) {
      await page.setViewportSize({ width, height });
      await shoot(page, `grid-${width}`);
      const [scroll, client] = await verdict
        .locator('.grid-scroll')
        .evaluate((el) => [el.scrollWidth, el.clientWidth]);
      assert.ok(scroll! <= client!, `at ${width} px the grid is ${scroll} px wide in ${client} px`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await verdict.getByText('IOPS', { exact: true }).first().click();
    const iops = (await seqRead.locator('.grid-value').textContent()) ?? '';
    assert.match(iops, /^[\d,]+$/);
    await grid.getByRole('columnheader', { name: 'Read (IOPS)' }).waitFor();
    // SEQ1M moves 1 MiB per I/O: the IOPS are the MB/s over 1.048576.
    const ratio = (Number(mbs) * 1e6) / (Number(iops.replace(/[^\d]/g, '')) * MiB);
    assert.ok(Math.abs(ratio - 1) < 0.01, `MB/s and IOPS agree (${mbs} vs ${iops})`);
    await verdict.getByText('MB/s', { exact: true }).first().click();

    // Copy as text: the volume, the date, a line per test and direction with its best figure.
    await verdict.getByRole('button', { name: 'Copy as text' }).click();
    await verdict.getByText('Copied the grid as text.').waitFor();
    const text = await page.evaluate<string>('navigator.clipboard.readText()');
    assert.match(text, new RegExp(`^Volume: ${saved.environment.volume.path}$`, 'm'));
    assert.match(text, /^Date: +\S/m);
    // The test size and count, as CrystalDiskMark's "Test: 1 GiB (x5)" says them.
    assert.match(
      text,
      new RegExp(
        `^Test: ${formatBytes(scaled).replace('.', '\\.')} file, [\\d.]+ s a run, ${count === 1 ? 'one pass' : `best of ${count} passes`}$`,
        'm',
      ),
    );
    const lines = text.split('\n').filter((line) => /^ {2}(SEQ|RND)/.test(line));
    assert.equal(lines.length, 8);
    for (const line of lines) {
      const [, test, value] = /^ {2}(\S+ \S+) +([\d.]+) MB\/s/.exec(line)!;
      const direction = lines.indexOf(line) < 4 ? 'read' : 'write';
      assert.equal(value, (best(`${test} ${direction}`) / 1e6).toFixed(2), line);
    }

    // Copy as image: a PNG on the clipboard (or, where the clipboard refuses, a download).
    const downloadSeen = page.waitForEvent('download', { timeout: 15_000 }).catch(() => null);
    await verdict.getByRole('button', { name: 'Copy as image' }).click();
    const said = verdict.locator('.grid-said');
    await said.filter({ hasText: /as an image|saved as/ }).waitFor();
    const message = (await said.textContent()) ?? '';
    let png: Buffer;
    if (message === 'Copied the grid as an image.') {
      const base64 = await page.evaluate<string>(`(async () => {
        const [item] = await navigator.clipboard.read();
        const bytes = new Uint8Array(await (await item.getType('image/png')).arrayBuffer());
        let binary = '';
        for (const byte of bytes) binary += String.fromCharCode(byte);
        return btoa(binary);
      })()`);
      png = Buffer.from(base64, 'base64');
    } else {
      assert.match(message, /saved as plumb-grid\.png/);
      const download = await downloadSeen;
      assert.ok(download, 'the PNG was downloaded');
      png = readFileSync((await download.path())!);
    }
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // IHDR: a 640 × (70 + 44 × 5 + 16) table drawn at twice the size.
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1280, 2 * (70 + 44 * 5 + 16)]);
    assert.ok(png.length > 5000, `a PNG with the figures in it (${png.length} bytes)`);
    writeFileSync(path.join(artifactsDir, 'ui-grid-copied.png'), png);

    // A box dragged across the chart zooms its x axis; Reset zoom (from the keyboard) restores it.
    const canvas = verdict.getByRole('img', { name: /^Bytes per second over time/ });
    await canvas.scrollIntoViewIfNeeded();
    const original = await canvas.getAttribute('data-x-range');
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.55, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.6, { steps: 5 });
    await page.mouse.up();
    const zoomedCanvas = verdict.locator('canvas[data-zoomed="true"]');
    await zoomedCanvas.waitFor();
    assert.equal(
      await zoomedCanvas.getAttribute('aria-label'),
      await canvas.getAttribute('aria-label'),
    );
    const zoomed = (await canvas.getAttribute('data-x-range'))!.split(':').map(Number);
    const [low, high] = original!.split(':').map(Number);
    assert.ok(zoomed[0]! > low! && zoomed[1]! < high!, `zoomed in: ${original} → ${zoomed}`);
    await shoot(page, 'grid-zoomed');
    await verdict.getByRole('button', { name: 'Reset zoom of Bytes per second over time' }).focus();
    await page.keyboard.press('Enter');
    await zoomedCanvas.waitFor({ state: 'detached' });
    assert.equal(await canvas.getAttribute('data-zoomed'), 'false');
    assert.equal(await canvas.getAttribute('data-x-range'), original);

    // Ctrl + wheel zooms too; on the focused chart, 0 resets it.
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -400);
    await page.keyboard.up('Control');
    await zoomedCanvas.waitFor();
    const wheeled = (await canvas.getAttribute('data-x-range'))!.split(':').map(Number);
    assert.ok(wheeled[1]! - wheeled[0]! < high! - low!, `the wheel zoomed in: ${wheeled}`);
    await canvas.focus();
    await page.keyboard.press('0');
    await zoomedCanvas.waitFor({ state: 'detached' });
    assert.equal(await canvas.getAttribute('data-x-range'), original);
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);
