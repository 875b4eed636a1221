// plumb-test: alone (it measures rates or times on a throttled disk; see scripts/test.mjs)
/**
 * Benchmark runs in real Chromium through `plumb serve`, beyond the everyday flow of
 * ui-bench.test.ts: a run the engine refuses says why on screen; a running test survives a page
 * reload; the paired, task and read-folder tests set up and read as verdicts. Screenshots go to
 * test-artifacts/ui-*.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissingReason, openAppPage } from '../helpers/chromium.js';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import {
  loopSkipReason,
  mountLoopFs,
  mountTmpfs,
  tmpfsSkipReason,
  type MountedFs,
} from '../helpers/loopfs.js';
import {
  createWriteThrottle,
  throttleSkipReason,
  type WriteThrottle,
} from '../helpers/throttle.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const noChromium = chromiumMissingReason();
if (noChromium) console.log(`# skipping the benchmark run UI tests: ${noChromium}`);
const noThrottle = noChromium ?? loopSkipReason('ext4') ?? throttleSkipReason();
if (noThrottle) console.log(`# skipping the live cliff UI test: ${noThrottle}`);

let ui: UiSession | undefined;
let scratch: string;

before(async () => {
  if (noChromium) return;
  ui = await startUiSession('ui-runs');
  scratch = path.join(ui.work, 'scratch');
  mkdirSync(scratch);
});

after(() => ui?.close());

/** A fresh empty folder under the scratch folder. */
function newFolder(name: string): string {
  const folder = path.join(scratch, name);
  mkdirSync(folder);
  return folder;
}

/** A page of the session's server, or of `from` (a server started in a throttled cgroup). */
function openPage(
  colorScheme: 'light' | 'dark',
  hash = '#/bench',
  from?: ServeProcess,
): Promise<Page> {
  return from
    ? openAppPage(ui!.browser, from, { colorScheme, hash, problems: ui!.problems })
    : ui!.openPage(hash, { colorScheme });
}

async function shoot(page: Page, name: string): Promise<void> {
  await ui!.shoot(page, `ui-${name}`);
}

/**
 * Chooses `folder` and a plan on the "Test a disk" screen. When the folder is not confirmed in
 * time, the error says what the picker showed instead and what `server` (if given) printed.
 */
async function setUp(
  page: Page,
  folder: string,
  planTitle: string,
  server?: ServeProcess,
): Promise<void> {
  await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
  await page.getByLabel('Test files go in').fill(folder);
  const use = page.getByRole('button', { name: 'Use this folder' });
  await use.click();
  try {
    await page.getByText(`Plumb writes into a new folder inside`).waitFor();
  } catch (cause) {
    // Read with a short wait each: a page gone by now must not add a timeout of its own.
    const quick = { timeout: 1000 };
    const picker = await page
      .locator('.volume-picker')
      .textContent(quick)
      .catch(() => '');
    const checking = await use.isDisabled(quick).catch(() => null);
    const button = checking === null ? 'gone' : checking ? 'disabled (still checking)' : 'enabled';
    const printed = server ? `; the server printed: ${server.output()}` : '';
    throw new Error(
      `${folder} was not confirmed: the picker showed "${picker}"; "Use this folder" ${button}${printed}`,
      { cause },
    );
  }
  await page.getByText(planTitle, { exact: true }).click();
}

/** Polls the live "Files" figure until `enough` says so. */
async function waitForFiles(page: Page, enough: (done: number) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = (await page.getByTestId('live-files').textContent()) ?? '';
    if (enough(Number(text.split('/')[0]))) return;
    if (Date.now() > deadline) throw new Error(`the file count stayed at "${text}"`);
    await page.waitForTimeout(40);
  }
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

test(
  'a running test survives a page reload: the live view picks it up and can cancel it',
  { skip: noChromium, timeout: 180_000 },
  async () => {
    const folder = newFolder('reload');
    const page = await openPage('light');
    await setUp(page, folder, 'Sustained write');
    await page.getByLabel('Write in all').fill('4GB');
    await page.getByLabel('Time the recovery after a cliff').uncheck();
    await page.getByRole('button', { name: 'Start test' }).click();
    await page.getByRole('article', { name: /^Sustained write on / }).waitFor();
    await waitForFiles(page, (done) => done >= 5, 60_000);
    const filesBefore = Number(await page.getByTestId('live-files').textContent());

    await page.reload();
    const live = page.getByRole('article', { name: `Sustained write on ${folder}` });
    await live.waitFor({ timeout: 15_000 });
    assert.ok(
      Number(await page.getByTestId('live-files').textContent()) >= filesBefore,
      'the files so far are back',
    );
    assert.equal(await live.locator('.status-pill').textContent(), 'Writing');
    assert.match(
      (await live.locator('.verdict-meta').textContent()) ?? '',
      /Quick run \(1 % of full size\)/,
    );
    // And it goes on: new files arrive after the reload.
    const afterReload = Number(await page.getByTestId('live-files').textContent());
    await waitForFiles(page, (done) => done >= afterReload + 3, 60_000);
    await page.getByText('Points appear as each file finishes.').waitFor({ state: 'hidden' });
    await shoot(page, 'live-reloaded-light');

    await page.getByRole('button', { name: 'Cancel test' }).click();
    await page.getByText(/^Cancelled\. Plumb removed its test files/).waitFor({ timeout: 60_000 });
    assert.deepEqual(readdirSync(folder), [], 'nothing is left in the folder');
    await page.close();
  },
);

/** Waits for the run to finish and its verdict to open; shoots it light, then dark. */
async function verdictInBothSchemes(page: Page, title: RegExp, name: string) {
  await page.getByText('Finished and saved to').waitFor({ timeout: 150_000 });
  const verdict = page.getByRole('article', { name: title });
  await verdict.waitFor();
  await shoot(page, `${name}-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
  return verdict;
}

test(
  'two disks at once: a second folder and the direction, then alone against together in words',
  { skip: noChromium, timeout: 200_000 },
  async () => {
    const [a, b] = [newFolder('pair-a'), newFolder('pair-b')];
    const page = await openPage('light');
    await setUp(page, a, 'Two disks at once');
    const start = page.getByRole('button', { name: 'Start test' });
    assert.equal(await start.isEnabled(), false, 'the second folder comes first');
    await page.getByText('The two-disk test needs a second folder').waitFor();
    await page.getByLabel('Second folder (B)').fill(b);
    await page.getByLabel('Together', { exact: true }).selectOption('both');
    await shoot(page, 'setup-paired-light');
    await start.click();
    await page.getByRole('article', { name: /^Two disks at once on / }).waitFor();
    const verdict = await verdictInBothSchemes(
      page,
      /^Verdict: Two disks at once/,
      'verdict-paired',
    );
    const note = verdict.getByTestId('paired-verdict');
    // One volume: whatever the rates, the sentence says what the two share.
    assert.match((await note.textContent()) ?? '', /^(No interference|They slow each other down)/);
    const table = verdict.getByRole('table', { name: 'Each disk alone and together' });
    assert.deepEqual(await table.locator('tbody th .method-name').allTextContents(), [
      'Both writing',
      'Both reading',
      'A writing, B reading',
    ]);
    assert.match((await table.locator('tbody td').first().textContent()) ?? '', /B\/s$/);
    assert.equal(
      await verdict
        .getByRole('list', { name: 'Each pairing in words' })
        .getByRole('listitem')
        .count(),
      3,
    );
    assert.deepEqual([readdirSync(a), readdirSync(b)], [[], []], 'both folders are left clean');
    await page.close();
  },
);

test(
  'a two-disk run the free-space guard refuses on the second disk says so on screen',
  { skip: noChromium ?? tmpfsSkipReason(), timeout: 60_000 },
  async () => {
    const small = mountTmpfs(32 * 1024 * 1024);
    try {
      const page = await openPage('dark');
      await setUp(page, newFolder('pair-big'), 'Two disks at once');
      await page.getByLabel('Second folder (B)').fill(small.dir);
      await page.getByRole('button', { name: 'Start test' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor({ timeout: 15_000 });
      assert.match(
        (await alert.textContent()) ?? '',
        new RegExp(
          `^The paired plan needs .* on the volume of ${small.dir}, but only 0 B may be used there\\. Plumb keeps .* free here\\. What would work: `,
        ),
      );
      assert.doesNotMatch(
        (await alert.textContent()) ?? '',
        /--/,
        'no command-line flags on screen',
      );
      assert.equal(await page.getByRole('article').count(), 0, 'no run is shown');
      await shoot(page, 'setup-refused-dark');
      assert.deepEqual(readdirSync(small.dir), [], 'nothing was written');
      await page.close();
    } finally {
      small.unmount();
    }
  },
);

test(
  'a real task: disk against memory, and whether it is disk-bound',
  { skip: noChromium, timeout: 200_000 },
  async () => {
    const folder = newFolder('task');
    const page = await openPage('light');
    await setUp(page, folder, 'Real task');
    await page.getByRole('button', { name: 'Start test' }).click();
    await page.getByRole('article', { name: /^Real task on / }).waitFor();
    const verdict = await verdictInBothSchemes(page, /^Verdict: Real task/, 'verdict-task');
    assert.match(
      (await verdict.getByTestId('task-verdict').textContent()) ?? '',
      /^(Held back by the disk|Partly held back by the disk|The processor sets the pace)The task ran at .* on this volume and .* in memory/,
    );
    assert.match((await verdict.getByTestId('task-on-this-disk').textContent()) ?? '', /B\/s$/);
    assert.match((await verdict.getByTestId('task-in-memory').textContent()) ?? '', /B\/s$/);
    assert.match((await verdict.getByTestId('task-disk-cost').textContent()) ?? '', /^\d+ %$/);
    assert.deepEqual(readdirSync(folder), []);
    await page.close();
  },
);

test(
  'reading a folder: every file timed uncached, nothing written, a verdict like the others',
  { skip: noChromium, timeout: 120_000 },
  async () => {
    const folder = newFolder('old-files');
    mkdirSync(path.join(folder, 'nested'));
    const sizes = [1, 2, 3, 5, 8, 13].map((m) => m * 1024 * 1024);
    for (const [i, bytes] of sizes.entries())
      writeFileSync(path.join(folder, i % 2 ? 'nested' : '.', `f${i}.bin`), randomBytes(bytes));
    const before = readdirSync(folder, { recursive: true }).sort();
    const page = await openPage('light');
    await setUp(page, folder, 'Read a folder');
    assert.equal(await page.getByLabel('Scale', { exact: true }).count(), 0, 'nothing to scale');
    await page.getByText(/^Read a folder .*: every file under it is read once, uncached/).waitFor();
    await shoot(page, 'setup-read-folder-light');
    await page.getByRole('button', { name: 'Start test' }).click();
    const verdict = await verdictInBothSchemes(
      page,
      /^Verdict: Read a folder/,
      'verdict-read-folder',
    );
    assert.match((await verdict.getByTestId('headline-read').textContent()) ?? '', /B\/s$/);
    assert.equal(await verdict.getByTestId('headline-transferred').textContent(), '33.6 MB');
    assert.deepEqual(
      readdirSync(folder, { recursive: true }).sort(),
      before,
      'nothing was written',
    );
    await page.close();
  },
);

test(
  'the live chart marks a cache cliff as soon as it is found, on a throttled disk',
  { skip: noThrottle, timeout: 180_000 },
  async () => {
    // A large sparse ext4 (the guard keeps 10 % free, so a small one would be refused) on a loop
    // device whose write cap drops from 40 to 8 MB/s after 80 MB, as a full SLC cache would.
    const cliffBytes = 80e6;
    let fs: MountedFs | undefined;
    let throttle: WriteThrottle | undefined;
    let serving: Awaited<ReturnType<typeof startServe>> | undefined;
    try {
      fs = mountLoopFs('ext4', {
        sizeBytes: 200 * 1024 ** 3,
        directIo: true,
        mkfsArgs: [
          '-N',
          '4096',
          '-O',
          '^has_journal',
          '-E',
          'lazy_itable_init=0,lazy_journal_init=0',
        ],
      });
      throttle = createWriteThrottle(fs.device!, 40e6);
      const lowered = throttle.lowerAfter(cliffBytes, 8e6);
      serving = await startServe([], { cgroupProcsFile: throttle.procsFile });
      const page = await openPage('dark', '#/bench', serving);
      await setUp(page, fs.dir, 'Sustained write', serving);
      await page.getByLabel('Write in all').fill('240MB');
      await page.getByLabel('Time the recovery after a cliff').uncheck();
      await page.getByRole('button', { name: 'Start test' }).click();
      const live = page.getByRole('article', { name: /^Sustained write on / });
      await live.waitFor();
      const chart = live.getByRole('img', {
        name: /^Rate against data written\. .* Cache cliff at /,
      });
      await chart.waitFor({ timeout: 90_000 });
      // Marked while the disk is still being written, not at the end.
      assert.equal(await live.locator('.status-pill').textContent(), 'Writing');
      const name = (await chart.getAttribute('aria-label')) ?? '';
      const at = /Cache cliff at ([\d.]+) MB/.exec(name);
      assert.ok(at, name);
      assert.ok(Math.abs(Number(at[1]) * 1e6 - cliffBytes) < 0.15 * cliffBytes, name);
      await live.getByRole('list', { name: 'Findings' }).getByText('Speed dropped').waitFor();
      await shoot(page, 'live-cliff-dark');
      lowered.stop();
      await page.getByRole('button', { name: 'Cancel test' }).click();
      await page
        .getByText(/^Cancelled\. Plumb removed its test files/)
        .waitFor({ timeout: 60_000 });
      assert.deepEqual(
        readdirSync(fs.dir).filter((n) => n.startsWith('plumb-test-')),
        [],
      );
      await page.close();
    } finally {
      await serving?.stop();
      throttle?.remove();
      fs?.unmount();
    }
  },
);

test('no console errors or warnings', { skip: noChromium }, () => {
  assert.deepEqual(ui!.problems, []);
});
