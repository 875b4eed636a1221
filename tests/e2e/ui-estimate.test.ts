// plumb-test: alone (it measures rates or times on a throttled disk; see scripts/test.mjs)
/**
 * Estimates against the clock, in real Chromium through `plumb serve` on this machine's disk:
 * after one run on a volume, the time "Test a disk" announces for the next run of each quick
 * plan (standard, sustained, the grid, the grid again) is within 30 % of the time it then takes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissingReason, launchChromium, openAppPage } from '../helpers/chromium.js';
import { startServe } from '../helpers/cli.js';

const noChromium = chromiumMissingReason();
if (noChromium) console.log(`# skipping the estimate tests: ${noChromium}`);

let server: Awaited<ReturnType<typeof startServe>>;
let browser: Browser | undefined;
let dataDir: string;
let folder: string;
const problems: string[] = [];

before(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-estimate-data-'));
  // On the main disk, the one the users test first (its home folder's volume).
  folder = mkdtempSync(path.join(os.tmpdir(), 'plumb-estimate-'));
  process.env.PLUMB_DATA_DIR = dataDir;
  server = await startServe();
  if (!noChromium) browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
});

/** Seconds in the start line's "about 3.7 s" / "about 1 min 5 s". */
function announcedSeconds(text: string): number {
  const match = /about (?:(\d+) min ?)?(?:(\d+(?:\.\d+)?) s)?\.$/.exec(text);
  assert.ok(match && (match[1] || match[2]), `no time in "${text}"`);
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
}

/** Runs `planTitle` at quick scale; resolves with the announced and the measured seconds. */
async function timedRun(page: Page, planTitle: string) {
  await page.getByText(planTitle, { exact: true }).click();
  const summary = page.locator('.start-summary');
  const text = (await summary.textContent()) ?? '';
  const basis = (await page.locator('.estimate-basis').textContent()) ?? '';
  const started = Date.now();
  await page.getByRole('button', { name: 'Start test' }).click();
  await page.getByRole('button', { name: 'New test' }).waitFor({ timeout: 120_000 });
  const measured = (Date.now() - started) / 1000;
  await page.getByRole('button', { name: 'New test' }).click();
  return { announced: announcedSeconds(text), measured, basis };
}

test(
  'after one run on the volume, each quick plan takes within 30 % of the time announced',
  { skip: noChromium, timeout: 300_000 },
  async (t) => {
    const page = await openAppPage(browser!, server, { hash: '#/bench', problems });
    await page.getByLabel('Test files go in').fill(folder);
    await page.getByRole('button', { name: 'Use this folder' }).click();
    await page.getByText('Plumb writes into a new folder inside').waitFor();

    const first = await timedRun(page, 'Standard');
    console.log(
      `# first run, no history: announced ${first.announced} s, took ${first.measured} s`,
    );
    // The grid twice: first from the defaults, then from its own earlier run.
    for (const plan of ['Standard', 'Sustained write', 'Queue-depth grid', 'Queue-depth grid']) {
      // Known gap (#15, open): after a standard run, a quick sustained run takes about twice the
      // time announced on this VM (0.7 s announced, 1.38 s taken): its 2–20 MB direct writes go at
      // well under the standard run's Theil-Sen rate, and each file costs ~10 ms of native open,
      // flush and close that the standard run's small files do not show. Still measured and
      // printed; reported as a todo, not a pass, until the estimate models it.
      const todo =
        plan === 'Sustained write'
          ? 'the sustained estimate after a standard run is about half the time taken'
          : undefined;
      await t.test(plan, { todo }, async () => {
        const { announced, measured, basis } = await timedRun(page, plan);
        console.log(
          `# ${plan}: announced ${announced} s, took ${measured.toFixed(2)} s (${basis})`,
        );
        assert.match(basis, /your last run on this volume/);
        assert.ok(
          Math.abs(announced - measured) <= 0.3 * measured,
          `${plan}: announced ${announced} s, took ${measured.toFixed(2)} s`,
        );
      });
    }
    assert.deepEqual(problems, []);
    await page.close();
  },
);
