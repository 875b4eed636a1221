/**
 * The benchmark UI end to end in real Chromium through `plumb serve`: choose a folder, run
 * scaled-down tests and watch them fill in, cancel one and find the folder clean, reopen a saved
 * result after a reload, compare two; screenshots of every main view, light and dark.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const noChromium = chromiumMissingReason();
if (noChromium) console.log(`# skipping the benchmark UI tests: ${noChromium}`);

let ui: UiSession | undefined;
let folder: string;

before(async () => {
  if (noChromium) return;
  ui = await startUiSession('ui-bench');
  folder = path.join(ui.work, 'target');
  mkdirSync(folder);
});

after(() => ui?.close());

function openPage(colorScheme: 'light' | 'dark', hash: string): Promise<Page> {
  return ui!.openPage(hash, { colorScheme });
}

async function shoot(page: Page, name: string): Promise<void> {
  await ui!.shoot(page, `ui-${name}`);
}

/** Chooses the test folder and a plan on the "Test a disk" screen. */
async function setUp(page: Page, planTitle: string): Promise<void> {
  await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
  await page.getByLabel('Test files go in').fill(folder);
  await page.getByRole('button', { name: 'Use this folder' }).click();
  await page.getByText(`Plumb writes into a new folder inside`).waitFor();
  await page.getByText(planTitle, { exact: true }).click();
  assert.equal(
    await page.getByLabel('Scale', { exact: true }).inputValue(),
    '0.01',
    'quick scale by default',
  );
}

const filesFigure = (page: Page) => page.getByTestId('live-files');

/** Polls the live "Files" figure ("12 / 320" or "12") until `enough` says so. */
async function waitForFiles(page: Page, enough: (done: number) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = (await filesFigure(page).textContent()) ?? '';
    if (enough(Number(text.split('/')[0]))) return;
    if (Date.now() > deadline) throw new Error(`the file count stayed at "${text}"`);
    await page.waitForTimeout(40);
  }
}

test('a new user sees what to do first', { skip: noChromium }, async () => {
  for (const scheme of ['light', 'dark'] as const) {
    const page = await openPage(scheme, '#/results');
    await page.getByRole('heading', { name: 'No results yet' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Test a disk' }).count(), 3);
    await shoot(page, `results-empty-${scheme}`);
    await page.close();
  }
});

test(
  'a scaled-down standard test fills both charts live, then shows its verdict',
  { skip: noChromium, timeout: 240_000 },
  async () => {
    const page = await openPage('light', '#/bench');
    await setUp(page, 'Standard');
    await page.getByText(/^Standard on .*: .* written, about /).waitFor();
    await shoot(page, 'setup-light');
    await page.getByRole('button', { name: 'Start test' }).click();

    const live = page.getByRole('article', { name: /^Standard on / });
    await live.waitFor();
    // Charts fill: points replace the waiting text, the file count climbs.
    await page.getByText('Points appear as each file finishes.').waitFor({ state: 'hidden' });
    await waitForFiles(page, (done) => done >= 60 && done < 320, 120_000);
    assert.match((await filesFigure(page).textContent()) ?? '', /^\d+ \/ 320$/);
    assert.notEqual(await page.getByTestId('live-written').textContent(), '0 B');
    await shoot(page, 'live-light');

    await page.getByText('Finished and saved to').waitFor({ timeout: 180_000 });
    const verdict = page.getByRole('article', { name: /^Verdict: Standard/ });
    await verdict.waitFor();
    assert.match((await page.getByTestId('headline-write').textContent()) ?? '', /B\/s$/);
    // Plain words lead; the statistics and the files are one click away. Each rate says what set
    // it, once for both when they share it: the steady rate (the slope) where it describes the
    // files, else their bytes over their seconds (headline-rate.ts), which this disk decides.
    // Where this disk's own speed fell during a phase (it drifts), that phase's rate is all its
    // bytes over all its seconds ("..., the whole phase") and the verdict points to the finding.
    const plain = (await verdict.getByTestId('verdict-plain').textContent()) ?? '';
    const basis = String.raw`(?:steady rate of )?\d+ files of 2 MB or more(?:, the whole phase)?`;
    const rate = String.raw`[\d.]+ [KMG]B/s`;
    const said = plain.match(
      new RegExp(
        `^This disk wrote at ${rate}(?: \\((${basis})\\))? and read at ${rate} \\((${basis})( each way)?\\), with the system cache out of the way\\.( Read the (?:finding|\\d findings) below: [^.]+\\.)?$`,
      ),
    );
    assert.ok(said, plain);
    const [, writeBasis, readBasis, eachWay, attention] = said;
    // Said once when shared, else once each, and then different.
    assert.equal(eachWay !== undefined, writeBasis === undefined, plain);
    assert.notEqual(writeBasis, readBasis, plain);
    if (plain.includes('the whole phase'))
      assert.match(attention ?? '', /speed dropped|ran out|throttl/i, plain);
    assert.equal(
      await verdict.getByRole('table', { name: 'Summary by method' }).isVisible(),
      false,
    );
    await verdict.getByText('Details: every statistic and every file').click();
    await verdict.getByRole('table', { name: 'Summary by method' }).waitFor();
    assert.equal(await verdict.getByRole('row', { name: /^Theil-Sen rate/ }).count(), 1);
    // The per-file table draws only the rows in view, and sorts on a click.
    const fileRows = verdict.getByRole('table', { name: 'Files' }).getByRole('row');
    assert.ok((await fileRows.count()) < 40, 'rows are virtualised');
    await verdict.getByRole('button', { name: 'Rate', exact: true }).click();
    assert.equal(
      await verdict.getByRole('columnheader', { name: 'Rate' }).getAttribute('aria-sort'),
      'descending',
    );
    await shoot(page, 'verdict-light');
    assert.deepEqual(readdirSync(folder), [], 'the test files are gone');
    await page.close();
  },
);

test(
  'a sustained test can be cancelled midway, and its folder is left clean',
  { skip: noChromium, timeout: 240_000 },
  async () => {
    const page = await openPage('dark', '#/bench');
    await setUp(page, 'Sustained write');
    await page.getByLabel('Write in all').fill('4GB');
    await page.getByLabel('Time the recovery after a cliff').uncheck();
    await page.getByRole('button', { name: 'Start test' }).click();
    await page.getByRole('article', { name: /^Sustained write on / }).waitFor();
    await waitForFiles(page, (done) => done >= 8, 120_000);
    await shoot(page, 'live-dark');
    await page.getByRole('button', { name: 'Cancel test' }).click();
    await page.getByText(/^Cancelled\. Plumb removed its test files/).waitFor({ timeout: 60_000 });
    assert.deepEqual(readdirSync(folder), [], 'nothing is left in the folder');
    await page.getByRole('button', { name: 'New test' }).click();

    // The same plan, small enough to finish.
    await setUp(page, 'Sustained write');
    await page.getByLabel('Write in all').fill('150MB');
    await page.getByLabel('Time the recovery after a cliff').uncheck();
    await page.getByRole('button', { name: 'Start test' }).click();
    await page.getByText('Finished and saved to').waitFor({ timeout: 180_000 });
    await page.getByRole('article', { name: /^Verdict: Sustained write/ }).waitFor();
    await shoot(page, 'verdict-dark');
    assert.deepEqual(readdirSync(folder), []);
    await page.close();
  },
);

test(
  'the queue-depth grid fills in while bytes/s are drawn over time',
  { skip: noChromium, timeout: 180_000 },
  async () => {
    const page = await openPage('light', '#/bench');
    await setUp(page, 'Queue-depth grid');
    await page.getByRole('button', { name: 'Start test' }).click();
    const grid = page.getByRole('table', { name: 'Queue-depth results' });
    await grid.waitFor();
    await page.getByRole('cell', { name: /^SEQ1M Q8T1 read: \d/ }).waitFor({ timeout: 60_000 });
    await page.getByText('Finished and saved to').waitFor({ timeout: 120_000 });
    const verdict = page.getByRole('article', { name: /^Verdict: Queue-depth grid/ });
    await verdict.getByTestId('headline-sequential-read').waitFor();
    assert.equal(await verdict.getByRole('cell', { name: /: waiting$/ }).count(), 0);
    await shoot(page, 'presets-light');
    await page.close();
  },
);

test(
  'saved results survive a reload, open again, and two compare on the same charts',
  { skip: noChromium, timeout: 120_000 },
  async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await openPage(scheme, '#/results');
      await page.reload();
      const list = page.getByRole('table', { name: 'Saved results' });
      await list.waitFor();
      assert.equal(await list.getByRole('checkbox').count(), 3);
      await shoot(page, `results-${scheme}`);

      await list.getByRole('button', { name: /^Standard/ }).click();
      await page.getByRole('article', { name: /^Verdict: Standard/ }).waitFor();
      const address = page.url();
      await page.reload();
      assert.equal(page.url(), address);
      await page.getByRole('article', { name: /^Verdict: Standard/ }).waitFor();
      if (scheme === 'dark') await shoot(page, 'verdict-standard-dark');

      await page.getByRole('button', { name: '← All results' }).click();
      await list.getByRole('checkbox', { name: /Standard/ }).check();
      await list.getByRole('checkbox', { name: /Sustained write/ }).check();
      await page.getByRole('button', { name: 'Compare 2' }).click();
      await page.getByRole('heading', { name: 'Comparing 2 results' }).waitFor();
      const table = page.getByRole('table', { name: 'Headline figures of the compared results' });
      await table.waitFor();
      assert.equal(await table.getByRole('row').count(), 3);
      await shoot(page, `compare-${scheme}`);
      await page.close();
    }
    assert.deepEqual(ui!.problems, [], 'no console errors or warnings');
  },
);

test('a result can be renamed and deleted', { skip: noChromium, timeout: 60_000 }, async () => {
  const page = await openPage('light', '#/results');
  const list = page.getByRole('table', { name: 'Saved results' });
  await list.getByRole('button', { name: /^Queue-depth grid/ }).click();
  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByLabel('Name of this result').fill('Dock SSD grid');
  await page.getByRole('button', { name: 'Save name' }).click();
  await page.getByRole('heading', { name: 'Dock SSD grid' }).waitFor();
  await page.getByRole('button', { name: 'Delete…' }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await list.waitFor();
  assert.equal(await list.getByRole('checkbox').count(), 2);
  assert.equal(await list.getByText('Dock SSD grid').count(), 0);
  await page.close();
  assert.deepEqual(ui!.problems, []);
});
