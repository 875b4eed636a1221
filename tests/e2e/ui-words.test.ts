/**
 * Every error path the issue names, in real Chromium through `plumb serve`, shows words that say
 * what to do, never a system code: a sparse file created over an existing one (EEXIST), holes
 * punched in a file that is gone (ENOENT), a planner size typed below zero, and the planner's
 * notes after a run that wrote nothing (a folder read back).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';
import { randomFile } from '../helpers/space-files.js';

const noChromium = chromiumMissingReason();
if (noChromium) console.log(`# skipping the error-words tests: ${noChromium}`);

let ui: UiSession | undefined;
/** What a message must never show: errno codes, syscalls, the contract's field paths. */
const raw = /\bE[A-Z]{3,}\b|no such file or directory|File exists|Bad input|data\.\w|has no write/;

before(async () => {
  if (!noChromium) ui = await startUiSession('words');
});

after(async () => {
  const problems = ui?.problems ?? [];
  await ui?.close();
  // A refusal is said on the page; none of them may also throw in the page or log an error.
  assert.deepEqual(problems, [], 'no page error or console error on any error path');
});

const openPage = (hash: string): Promise<Page> => ui!.openPage(hash, { warnings: false });

test(
  'sparse tools: an existing file and a missing one are refused in words',
  {
    skip: noChromium,
  },
  async () => {
    const existing = path.join(ui!.work, 'disk.img');
    writeFileSync(existing, 'already here');
    const page = await openPage('#/space');
    await page.getByRole('tab', { name: 'Sparse files' }).click();

    const create = page.getByRole('form', { name: 'Create a sparse file' });
    await create.getByLabel('New file').fill(existing);
    await create.getByRole('button', { name: 'Create' }).click();
    const exists = create.getByRole('alert');
    await exists.waitFor();
    const existsText = (await exists.textContent()) ?? '';
    assert.match(existsText, /already exists\. Choose another name, or move that one away first\./);
    assert.doesNotMatch(existsText, raw);

    const missing = path.join(ui!.work, 'gone.img');
    const punch = page.getByRole('form', { name: 'Free the space of zero blocks' });
    await punch.getByLabel('File').fill(missing);
    await punch
      .getByRole('button', { name: /Find|Check|Look/ })
      .first()
      .click();
    const gone = punch.getByRole('alert');
    await gone.waitFor();
    const goneText = (await gone.textContent()) ?? '';
    assert.match(goneText, /does not exist|No such/);
    assert.doesNotMatch(goneText, raw);
    await page.close();
  },
);

test(
  'the planner: a size typed below zero and a run that wrote nothing leave no raw error',
  {
    skip: noChromium,
    timeout: 60_000,
  },
  async () => {
    // A run that only reads (a folder read back) is saved, and is no device for the planner.
    const folder = path.join(ui!.work, 'to-read');
    mkdirSync(folder);
    randomFile(path.join(folder, 'a.bin'), 4 * 1024 * 1024);
    const page = await openPage('#/bench');
    await page.getByLabel('Test files go in').fill(folder);
    await page.getByRole('button', { name: 'Use this folder' }).click();
    await page.getByText('Plumb writes into a new folder inside').waitFor();
    await page.getByText('Read a folder', { exact: true }).click();
    await page.getByRole('button', { name: 'Start test' }).click();
    await page.getByRole('button', { name: 'New test' }).waitFor({ timeout: 30_000 });

    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Planner' })
      .click();
    const keep = page.getByLabel('Must stay internal');
    await keep.waitFor();
    const notes =
      (await page.getByRole('list', { name: 'About these defaults' }).textContent()) ?? '';
    assert.doesNotMatch(notes, raw);
    await keep.fill('-5');
    await page.getByRole('button', { name: 'Compare options' }).click();
    await page.waitForTimeout(500);
    const alerts = await page.getByRole('alert').allTextContents();
    assert.ok(
      alerts.every((text) => !raw.test(text)),
      alerts.join(' | '),
    );
    // Kept as typed and explained in words, never changed behind the user's back.
    assert.equal(await keep.inputValue(), '-5');
    assert.equal(await keep.getAttribute('aria-invalid'), 'true');
    assert.ok(alerts.includes('Enter 0 GB or more.'), alerts.join(' | '));
    await page.close();
  },
);
