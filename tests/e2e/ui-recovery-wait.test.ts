// plumb-test: alone (it measures rates or times on a throttled disk; see scripts/test.mjs)
/**
 * The rest before a recovery probe in real Chromium (issue 23: "Timing the recovery: 100 %, 0.0 s
 * left" for 30 s, then "Test failed"). The built-in sustained plan at full size with the default
 * reserve, started from the setup screen, on a 3 GB ext4 loop disk under the kernel's block
 * throttle (700–900 MB/s, then 150–250 MB/s after a cache of 0.3–0.6 GB, drawn at random and
 * scaled evenly where this machine's disk is slower; the cap goes back up once the disk has
 * rested a few seconds). Before Start the setup says the probes are sized to the disk; while the
 * disk rests the live view says so with the rest's own time left and a bar of its own, never
 * 100 %, the sidebar shows no percentage; the run ends saved with its cliff. Screenshots to
 * test-artifacts/recovery-wait-*.png.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { baseSeed, seededRandom } from '../helpers/synthetic-samples.js';
import { chromiumMissingReason, launchChromium, openAppPage } from '../helpers/chromium.js';
import { runPlumb, startServe } from '../helpers/cli.js';
import { loopSkipReason } from '../helpers/loopfs.js';
import { mountThrottledDisk, throttleSkipReason, type WriteThrottle } from '../helpers/throttle.js';
import { artifactsDir } from '../helpers/ui-session.js';

const MB = 1e6;
const GB = 1e9;
const seed = baseSeed();
const random = seededRandom(seed);
const between = (low: number, high: number) => low + random() * (high - low);

const skip = chromiumMissingReason() ?? loopSkipReason('ext4') ?? throttleSkipReason();
if (skip) console.log(`# skipping the recovery-wait UI test: ${skip}`);

let browser: Browser | undefined;
let dataDir: string;
const problems: string[] = [];

before(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-ui-rest-data-'));
  process.env.PLUMB_DATA_DIR = dataDir; // inherited by `plumb serve`: results go to a temp dir
  if (!skip) browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test(
  'the rest before a recovery probe is a wait with its own time left, never 100 %',
  { skip, timeout: 300_000 },
  async () => {
    let fast = between(700, 900) * MB;
    let slow = between(150, 250) * MB;
    const cache = between(0.3, 0.6) * GB;
    console.log(
      `# drawn: ${(fast / MB).toFixed(0)} → ${(slow / MB).toFixed(0)} MB/s after ${(cache / GB).toFixed(2)} GB`,
    );
    // A disk slower than the cap would keep every probe under the cache's rate (20 of them, ten
    // minutes): the rates are scaled to what it writes.
    const disk = mountThrottledDisk(3 * GB, fast, { fitToDisk: true });
    console.log(`# ${disk.scale.note}`);
    [fast, slow] = [fast * disk.scale.factor, slow * disk.scale.factor];
    let serving: Awaited<ReturnType<typeof startServe>> | undefined;
    const lowered = disk.throttle.lowerAfter(cache, slow);
    let raise: ReturnType<WriteThrottle['raiseAfterIdle']> | undefined;
    void lowered.done.then(() => (raise = disk.throttle.raiseAfterIdle(3, between(5, 20), fast)));
    try {
      serving = await startServe([], { cgroupProcsFile: disk.throttle.procsFile });
      const page = await openAppPage(browser!, serving, {
        colorScheme: 'light',
        hash: '#/bench',
        problems,
      });
      await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
      await page.getByLabel('Test files go in').fill(disk.fs.dir);
      await page.getByRole('button', { name: 'Use this folder' }).click();
      await page.getByText('Sustained write', { exact: true }).click();
      await page.getByLabel('Scale', { exact: true }).selectOption('1');
      // Before Start: the probes sized to what may be written on this disk.
      await page
        .getByText(/^Sustained write on .* Recovery probes of 1\.\d\d GB instead of 2\.00 GB: /)
        .waitFor();
      await page.getByRole('button', { name: 'Start test' }).click();

      const live = page.getByRole('article', { name: /^Sustained write on / });
      const step = live.getByTestId('live-step');
      // A wait that runs out says where the run was (the CI log keeps only the message).
      const where = async (error: Error) => {
        const shown = await page
          .locator('main')
          .textContent({ timeout: 5000 })
          .catch(() => 'nothing');
        throw new Error(`${error.message}\nthe run showed: ${shown}`);
      };
      await step
        .filter({
          hasText:
            /^Resting the disk so its cache can empty: [\d.]+ s left, then probe 1 of at most 20$/,
        })
        .waitFor({ timeout: 120_000 })
        .catch(where);
      const leftNow = async () =>
        Number(/: ([\d.]+) s left/.exec((await step.textContent()) ?? '')?.[1]);
      const first = await leftNow();
      const bar = live.getByRole('progressbar', { name: 'Rest before the next probe' });
      const rested = Number(await bar.getAttribute('aria-valuenow'));
      assert.ok(rested < 100, `the rest's bar at ${rested}`);
      assert.match((await live.getByTestId('live-left').textContent()) ?? '', /^[\d.]+ s$/);
      const nav = (await page.getByTestId('nav-run').textContent()) ?? '';
      assert.equal(nav, 'Testing Sustained write…', 'no share of the run while it rests');
      assert.doesNotMatch((await live.textContent()) ?? '', /100 %/);
      await page.screenshot({
        path: path.join(artifactsDir, 'recovery-wait-rest.png'),
        fullPage: true,
      });
      await page.waitForTimeout(2500);
      const later = await leftNow();
      assert.ok(later < first, `the rest counts down: ${first} s, then ${later} s left`);
      assert.ok(Number(await bar.getAttribute('aria-valuenow')) > rested, 'the rest bar moves on');

      await page.getByText('Finished and saved to').waitFor({ timeout: 240_000 }).catch(where);
      assert.equal(await page.getByRole('alert').count(), 0, 'the run did not fail');
      await page.screenshot({
        path: path.join(artifactsDir, 'recovery-wait-done.png'),
        fullPage: true,
      });
      const listed = runPlumb(['results', 'list', '--json'], { env: { PLUMB_DATA_DIR: dataDir } });
      const [item] = JSON.parse(listed.stdout) as { id: string }[];
      assert.ok(item, 'the result is saved');
      const shown = runPlumb(['results', 'show', item.id, '--json'], {
        env: { PLUMB_DATA_DIR: dataDir },
      });
      const document = ResultDocument.parse(JSON.parse(shown.stdout));
      assert.ok(
        document.findings.some((f) => f.kind === 'cliff'),
        'its cliff',
      );
      assert.ok(document.recovery && document.recovery.probes.length > 0, 'its recovery');
      assert.deepEqual(problems, []);
      await page.close();
    } finally {
      lowered.stop();
      raise?.stop();
      await serving?.stop();
      disk.remove();
    }
  },
);
