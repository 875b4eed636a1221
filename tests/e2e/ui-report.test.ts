/**
 * Exports from the browser UI (`plumb serve` in real Chromium): a result's PDF, CSV and JSON, a
 * comparison's PDF and the planner's PDF, each downloaded and read back. The server prints with
 * the system Chromium, the same way `plumb report` does.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { ResultDocument } from '../../app/contract/bench-result.js';
import { planSchemaVersion } from '../../app/contract/plan.js';
import { plumbFolders } from '../../app/core/paths.js';
import { resultCsv, ResultsStore } from '../../app/core/bench/results-store.js';
import { runBenchmark } from '../../app/core/bench/runner.js';
import { formatRate } from '../../app/common/format.js';
import { chromiumMissingReason, chromiumPath } from '../helpers/chromium.js';
import { FakeDrive } from '../helpers/fake-bench-io.js';
import { pdfText, popplerMissingReason, savePagePngs } from '../helpers/pdf.js';
import { artifactsDir, startUiSession, type UiSession } from '../helpers/ui-session.js';

const skip = chromiumMissingReason() ?? popplerMissingReason();
let ui: UiSession | undefined;
let downloads: string;
const results: ResultDocument[] = [];

function openPage(hash: string): Promise<Page> {
  return ui!.openPage(hash, { viewport: { width: 1280, height: 900 }, warnings: false });
}

/** Clicks the button and returns the downloaded file's name and path. */
async function download(page: Page, button: string): Promise<{ name: string; file: string }> {
  const [event] = await Promise.all([
    page.waitForEvent('download', { timeout: 90_000 }),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
  const file = path.join(downloads, event.suggestedFilename());
  await event.saveAs(file);
  return { name: event.suggestedFilename(), file };
}

describe('exports from the browser UI', { skip }, () => {
  before(async () => {
    process.env.PLUMB_BROWSER = chromiumPath(); // `plumb serve` prints with it
    ui = await startUiSession('ui-report');
    downloads = path.join(ui.work, 'downloads');
    mkdirSync(downloads);
    const target = mkdtempSync(path.join(os.tmpdir(), 'plumb-ui-report-target-'));
    const store = new ResultsStore(plumbFolders().results);
    // Two runs of the engine against pretend drives: one with a write cache that runs out.
    for (const [name, drive] of [
      ['USB drive', new FakeDrive({ fastRate: 0.9e9, readRate: 1e9 })],
      ['NVMe drive', new FakeDrive({ fastRate: 2e9, slowRate: 0.6e9, cacheBytes: 0.3e9 })],
    ] as const) {
      const document = await runBenchmark(
        {
          target,
          plan: {
            schema: planSchemaVersion,
            name: 'series',
            kind: 'files',
            sizes: [10e6, 50e6, 100e6, 200e6],
            repeats: 2,
            shuffle: false,
            readBack: true,
          },
          appVersion: 'test',
          signal: new AbortController().signal,
          store,
          reserve: { fraction: 0.1, minBytes: 0 },
        },
        drive,
      );
      // A label, as a user gives one: the report names the device by it.
      await store.rename(document.id, name);
      results.push(await store.get(document.id));
    }
    rmSync(target, { recursive: true, force: true });
  });

  after(async () => {
    await ui?.close();
  });

  it('downloads a result as PDF, CSV and JSON', async () => {
    const [result] = results;
    const page = await openPage(`#/results/${result!.id}`);
    await page.getByRole('article', { name: /^Verdict: USB drive/ }).waitFor();

    const pdf = await download(page, 'Export PDF');
    assert.equal(pdf.name, `plumb-${result!.id}.pdf`);
    const text = pdfText(pdf.file);
    assert.ok(text.includes('USB drive'), 'the device name');
    assert.ok(text.includes(formatRate(result!.summary.write.median)), 'the write median');
    savePagePngs(pdf.file, artifactsDir, 'report-ui-result');

    const csv = await download(page, 'Export CSV');
    assert.equal(readFileSync(csv.file, 'utf8'), resultCsv(result!));
    const json = await download(page, 'Export JSON');
    assert.deepEqual(JSON.parse(readFileSync(json.file, 'utf8')), result);
    assert.deepEqual(ui!.problems, []);
    await page.close();
  });

  it('downloads a comparison as PDF', async () => {
    const page = await openPage(`#/results/compare/${results.map((r) => r.id).join(',')}`);
    await page.getByRole('heading', { name: 'Comparing 2 results' }).waitFor();
    const pdf = await download(page, 'Export PDF');
    const text = pdfText(pdf.file);
    assert.ok(text.includes('Comparison of 2 benchmark results'));
    for (const result of results) assert.ok(text.includes(result.name!), result.name!);
    assert.deepEqual(ui!.problems, []);
    await page.close();
  });

  it('downloads the planner scenario on screen as PDF', async () => {
    const page = await openPage('#/planner');
    const headline = page.locator('#plan-recommendation-title');
    await headline.waitFor();
    const expected = (await headline.textContent())!;
    const pdf = await download(page, 'Export PDF');
    assert.match(pdf.name, /^plumb-plan-.*\.pdf$/);
    assert.ok(pdfText(pdf.file).includes(expected.replace(/\s+/g, ' ')), expected);
    assert.deepEqual(ui!.problems, []);
    await page.close();
  });
});
