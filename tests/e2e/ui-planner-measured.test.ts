/**
 * The planner with a disk measured by a quick run, as a new user meets it in real Chromium through
 * `plumb serve`: the measured entry says it was a quick run; an option of disks already owned costs
 * nothing to buy (never "$0 per added TB"); a burst that does not fit is not given a time; the
 * card and the warning give the same wear life; an empty price says what it stands for; a scenario
 * is named, saved, renamed and shown as the one open; an impossible number is kept and explained,
 * not changed behind the user's back; unsaved edits survive a reload; and at 800×600 nothing
 * reaches past the window. Screenshots: test-artifacts/planner-measured-*.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { runPlumb } from '../helpers/cli.js';
import { clippedContent } from '../helpers/overflow.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const noChromium = chromiumMissingReason();
if (noChromium) console.log(`# skipping the measured-planner browser test: ${noChromium}`);

let ui: UiSession | undefined;

before(async () => {
  if (noChromium) return;
  ui = await startUiSession('planner-measured');
  // The quick run the UI offers first: the standard plan at its quick scale, on this machine's disk.
  const disk = path.join(ui.work, 'disk');
  mkdirSync(disk);
  const run = runPlumb(['bench', disk, '--plan', 'standard', '--scale', '0.01']);
  assert.equal(run.status, 0, run.stderr);
});
after(() => ui?.close());

/** The planner, once it has compared the options. */
async function openPlanner(width = 1280, height = 800): Promise<Page> {
  const page = await ui!.openPage('#/planner', { viewport: { width, height } });
  await page.getByRole('heading', { name: 'The options side by side' }).waitFor();
  return page;
}

/** Waits until the cards show what the form last asked for (the planner re-plans after 350 ms). */
async function settled(page: Page): Promise<void> {
  await page.waitForTimeout(600);
  await page.locator('.plan-results[aria-busy="false"]').waitFor();
}

test(
  'a quick-run disk in the planner: labelled, owned, and no time for what does not fit',
  { skip: noChromium, timeout: 120_000 },
  async () => {
    const page = await openPlanner();
    // Option 2 keeps the internal disk it has; its external becomes the measured one.
    const external = page.getByLabel('External SSD').nth(1);
    const labels = await external.locator('option').allTextContents();
    const measured = labels.find((label) => label.includes('standard plan'));
    assert.ok(measured, `no measured disk among ${labels.join(' | ')}`);
    assert.match(measured, /Quick run \(1 %\)/);
    await external.selectOption({ label: measured });
    // Writes heavy enough to wear the measured disk out within the horizon.
    await page.getByLabel('Daily writes, movable data').fill('400');
    await settled(page);

    const card = page.getByTestId('plan-option').nth(1);
    const text = await card.innerText();
    assert.match(text, /\$0/);
    assert.match(text, /nothing to buy/i); // the label is set in capitals by CSS
    assert.doesNotMatch(text, /\$0 per added TB/i);
    assert.doesNotMatch(text, /via measured/);
    // The import does not fit on the measured disk: no time is claimed for it.
    assert.match(text, /does not fit in the external disk's free space/);
    const burst = card.getByRole('list', { name: 'Burst times' }).getByRole('listitem').first();
    assert.equal((await burst.locator('.plan-burst-time').innerText()).trim(), 'Does not fit');
    // Nor does the chart: its line ends where the disk is full, and its table row says so.
    const rows = await page.locator('.plan-chart-data tbody tr').allTextContents();
    assert.ok(
      rows.some((row) => /Does not fit: the disk holds [\d.]+ [KMGT]?B more today/.test(row)),
      `no chart row says the burst does not fit: ${rows.join(' | ')}`,
    );
    // One wear life, said the same on the card and in the warning.
    const onCard = /Wear life about ([\d.]+\+? years?)/.exec(
      await card.locator('.plan-disk').nth(1).innerText(),
    );
    const warned = /reaches its rated endurance in about ([\d.]+\+? years?)/.exec(text);
    assert.ok(onCard && warned, `wear life not found in: ${text}`);
    assert.equal(onCard[1], warned[1]);
    assert.doesNotMatch(text, /(?<![\d.])1 years/);
    await ui!.shoot(page, 'planner-measured-1280');

    // An empty price says what stands in for it; it is not a grey number that looks typed.
    const price = page.getByLabel('External price (USD)').nth(2);
    assert.equal(await price.inputValue(), '');
    assert.equal(await price.getAttribute('placeholder'), null);
    const field = page
      .locator('.plan-field')
      .filter({ has: page.getByLabel('External price (USD)') })
      .nth(2);
    assert.match(await field.innerText(), /Empty: the catalogue's \$[\d,]+ is used/);
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);

test(
  'scenarios are named, saved once, renamed, and impossible numbers are explained',
  { skip: noChromium, timeout: 120_000 },
  async () => {
    const page = await openPlanner();
    const status = page.getByTestId('plan-current');
    assert.equal((await status.innerText()).trim(), 'Not saved yet.');
    await page.getByLabel('Name', { exact: true }).fill('Studio laptop');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Open: Studio laptop, saved.').waitFor();
    // Said once: the line names the scenario, the action's words do not repeat it.
    assert.equal(((await status.innerText()).match(/Studio laptop/g) ?? []).length, 1);
    assert.equal(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled(), true);

    // Renamed and saved over the same entry: the list holds the new name only.
    await page.getByLabel('Name', { exact: true }).fill('Studio laptop 2027');
    await page.getByText('Open: Studio laptop, with unsaved changes.').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Open: Studio laptop 2027, saved.').waitFor();
    const saved = await page
      .getByLabel('Open', { exact: true })
      .locator('optgroup[label="Saved"] option')
      .allTextContents();
    assert.deepEqual(saved, ['Studio laptop 2027']);

    // No name, no save, and the line says why.
    await page.getByLabel('Name', { exact: true }).fill('');
    assert.equal(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled(), true);
    await page.getByText('Give the scenario a name to save it.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Studio laptop 2027');

    // A negative number of years is kept as typed and explained; the plan keeps its last years.
    const years = page.getByLabel('Years to plan for');
    await years.fill('-2');
    assert.equal(await years.inputValue(), '-2');
    assert.equal(await years.getAttribute('aria-invalid'), 'true');
    await page.getByText('Enter a whole number from 1 to 10.').waitFor();
    await settled(page);
    assert.match(await page.getByTestId('plan-option').first().innerText(), /in year 4\b/);
    await years.fill('3');
    await settled(page);
    assert.equal(await years.getAttribute('aria-invalid'), null);
    assert.match(await page.getByTestId('plan-option').first().innerText(), /in year 3\b/);

    // A negative size likewise.
    const movable = page.getByLabel('Could move out');
    await movable.fill('-50');
    assert.equal(await movable.inputValue(), '-50');
    await page.getByText('Enter 0 GB or more.').waitFor();
    await movable.fill('300');
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);

test(
  'unsaved edits survive a reload, and the planner fits 800×600',
  { skip: noChromium, timeout: 120_000 },
  async () => {
    const page = await openPlanner(800, 600);
    await page.getByLabel('Daily writes, internal data').fill('37');
    await settled(page);
    await page.reload();
    await page.getByRole('heading', { name: 'The options side by side' }).waitFor();
    assert.equal(await page.getByLabel('Daily writes, internal data').inputValue(), '37');
    await page.getByText(/unsaved changes to ".*" from last time are back/).waitFor();

    // Nothing reaches past the window, and neither the page nor its main area scrolls sideways.
    assert.deepEqual(await clippedContent(page), []);
    // Plain JavaScript run in the page (the Node type-check has no DOM library).
    const sideways = await page.evaluate(`(() => {
      const main = document.querySelector('main');
      const root = document.documentElement;
      return { page: root.scrollWidth - root.clientWidth, main: main.scrollWidth - main.clientWidth };
    })()`);
    assert.deepEqual(sideways, { page: 0, main: 0 });
    await ui!.shoot(page, 'planner-measured-800');

    // Opening a scenario leaves the edits: the next visit starts from what was opened.
    await page.getByLabel('Open', { exact: true }).selectOption({ index: 1 });
    await page.getByText(/Opened /).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'The options side by side' }).waitFor();
    assert.equal(await page.getByText(/from last time are back/).count(), 0);
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);
