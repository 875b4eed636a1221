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
import { runPlumb } from '../helpers/cli.js';

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

/** Expert words a first look must not lead with (they belong in Details and tooltips). */
const expert =
  /\bscale 0\.\d|\bp50\b|Theil|trimmed mean|\br²|movable data|per added TB|Direct I\/O alignment|log-uniform|idle-and-probe/i;

/** The text a reader sees first: the page's main area without its closed Details. */
async function firstLookText(page: Page): Promise<string> {
  // Plain JavaScript run in the page (the tests' types have no DOM); innerText needs a laid-out copy.
  return page.evaluate(`(() => {
    const main = document.querySelector('main').cloneNode(true);
    for (const details of main.querySelectorAll('details:not([open])')) {
      for (const child of [...details.children]) if (child.tagName !== 'SUMMARY') child.remove();
    }
    document.body.append(main);
    const text = main.innerText;
    main.remove();
    return text;
  })()`);
}

test(
  'a quick grid and the planner lead with plain words; the codes stay as small labels',
  { skip: noChromium, timeout: 120_000 },
  async () => {
    const disk = path.join(ui!.work, 'grid-disk');
    mkdirSync(disk);
    const run = runPlumb(['bench', disk, '--plan', 'presets', '--scale', '0.01', '--json', '-']);
    assert.equal(run.status, 0, run.stderr);
    const document = JSON.parse(run.stdout) as { id: string };
    const page = await openPage(`#/results/${document.id}`);
    const header = page.getByRole('rowheader').first();
    await header.waitFor();
    // "Sequential, large blocks, 8 at once" first; CrystalDiskMark's code after it, smaller.
    assert.equal(await header.innerText(), 'Sequential, large blocks, 8 at once\nSEQ1M Q8T1');
    const code = header.locator('.grid-test-code');
    const size = (selector: string) =>
      page.evaluate(
        `parseFloat(getComputedStyle(document.querySelector(${JSON.stringify(selector)})).fontSize)`,
      ) as Promise<number>;
    const [wordsSize, codeSize] = [await size('th.grid-test'), await size('.grid-test-code')];
    assert.ok(codeSize! < wordsSize!, `the code is a small label (${codeSize} < ${wordsSize} px)`);
    assert.equal(await code.innerText(), 'SEQ1M Q8T1');
    const resultText = await firstLookText(page);
    assert.doesNotMatch(resultText, expert);
    assert.match(resultText, /Quick run \(1 %\)/);

    await page.goto(page.url().replace(/#.*$/, '#/planner'));
    await page.getByLabel('Must stay internal').waitFor();
    await page.getByRole('button', { name: 'Compare options' }).click();
    await page.locator('[data-testid=plan-option]').first().waitFor();
    const plannerText = await firstLookText(page);
    assert.doesNotMatch(plannerText, expert);
    assert.ok(await page.getByLabel('Daily writes, data that can move out').isVisible());
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);

/** WCAG's relative luminance of an "rgb(r, g, b)" colour, and the contrast of two. */
function luminance(rgb: string): number {
  const [r, g, b] = rgb
    .match(/\d+(\.\d+)?/g)!
    .slice(0, 3)
    .map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

for (const scheme of ['light', 'dark'] as const) {
  test(
    `${scheme} mode: a focused blue button has a 2px ring 2px off it, clear on the button and page`,
    { skip: noChromium },
    async () => {
      const page = await ui!.openPage('#/bench', { colorScheme: scheme, warnings: false });
      // A folder chosen, so the blue buttons are enabled.
      await page.getByLabel('Test files go in').fill(ui!.work);
      await page.getByRole('button', { name: 'Use this folder' }).click();
      await page.locator('.button-primary:enabled').first().waitFor();
      // From the keyboard, as :focus-visible shows it: Tab until a blue button has the focus.
      for (let tab = 0; tab < 60; tab += 1) {
        await page.keyboard.press('Tab');
        if (await page.evaluate(`document.activeElement?.matches('.button-primary')`)) break;
      }
      const style = (await page.evaluate(`(() => {
        const element = document.activeElement;
        const css = getComputedStyle(element);
        const body = getComputedStyle(document.body).backgroundColor;
        return {
          shadow: css.boxShadow,
          button: css.backgroundColor,
          page:
            body === 'rgba(0, 0, 0, 0)'
              ? getComputedStyle(document.documentElement).backgroundColor
              : body,
          focusVisible: element.matches(':focus-visible'),
        };
      })()`)) as { shadow: string; button: string; page: string; focusVisible: boolean };
      assert.ok(style.focusVisible, 'focused as from the keyboard');
      // "rgb(255, 255, 255) 0px 0px 0px 2px, rgb(29, 29, 31) 0px 0px 0px 4px": a gap, then the ring.
      const rings = [...style.shadow.matchAll(/(rgba?\([^)]*\)) 0px 0px 0px (\d+)px/g)];
      assert.deepEqual(
        rings.map((ring) => Number(ring[2])),
        [2, 4],
        style.shadow,
      );
      const ring = rings[1]![1]!;
      assert.ok(contrast(ring, style.button) >= 3, `ring ${ring} on the button ${style.button}`);
      assert.ok(contrast(ring, style.page) >= 3, `ring ${ring} on the page ${style.page}`);
      await page.close();
    },
  );
}

test(
  'every control the keyboard reaches on Test a disk shows where the focus is',
  { skip: noChromium },
  async () => {
    const page = await ui!.openPage('#/bench', { warnings: false });
    await page.getByLabel('Test files go in').fill(ui!.work);
    await page.getByRole('button', { name: 'Use this folder' }).click();
    await page.locator('.button-primary:enabled').first().waitFor();
    // Open the options, so their check boxes and fields are reached too.
    const advanced = page.locator('summary').filter({ hasText: /Advanced/ });
    if (await advanced.count()) await advanced.first().click();
    await page.locator('body').focus();
    const unmarked: string[] = [];
    const seen = new Set<string>();
    for (let tab = 0; tab < 80; tab += 1) {
      await page.keyboard.press('Tab');
      // A ring is an outline, a box shadow, or (a hidden radio) one on the card it labels.
      const focused = (await page.evaluate(`(() => {
        const element = document.activeElement;
        if (!element || element === document.body) return null;
        const marked = (e) => {
          const css = getComputedStyle(e);
          return (css.outlineStyle !== 'none' && parseFloat(css.outlineWidth) >= 2) ||
            css.boxShadow !== 'none';
        };
        const next = element.nextElementSibling;
        return {
          what: element.outerHTML.slice(0, 120),
          marked: marked(element) || (next !== null && marked(next)),
        };
      })()`)) as { what: string; marked: boolean } | null;
      if (!focused || seen.has(focused.what)) continue;
      seen.add(focused.what);
      if (!focused.marked) unmarked.push(focused.what);
    }
    assert.ok(seen.size >= 10, `only ${seen.size} controls reached`);
    assert.deepEqual(unmarked, []);
    await page.close();
  },
);
