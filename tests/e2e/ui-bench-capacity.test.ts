/**
 * The "Capacity check" test in real Chromium through `plumb serve`, on a fake "2 GB" stick
 * (wrapfs, its real size drawn at random below what the check fills): chosen beside the other
 * tests, it runs at full size whatever the scale, fills what the guard allows, shows its
 * read-back as a phase of its own (never a full bar while it goes on), and ends with the verdict
 * in words at the top. Screenshots to test-artifacts/capacity-*.png.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { baseSeed, seededRandom } from '../helpers/synthetic-samples.js';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';
import { fakeDiskSkipReason, makeFakeDisk, type FakeDisk } from '../helpers/verify-disks.js';

const seed = baseSeed();
const random = seededRandom(seed);

const skip = chromiumMissingReason() ?? fakeDiskSkipReason();
if (skip) console.log(`# skipping the capacity check UI test: ${skip}`);
let ui: UiSession | undefined;

/** What the live view shows in one frame: its phase, its bar's share, the sidebar's line. */
interface Frame {
  status: string;
  done: string | null;
  nav: string;
}

/**
 * Records every frame the live view draws, as a Frame, in window.seenFrames: a read-back of 1 GB
 * can be over in under a second, too short to catch by polling from the test. A plain script, as
 * the page has none of the helpers the test's compiler adds.
 */
const recordFrames = `(() => {
  const seen = [];
  window.seenFrames = seen;
  const text = (selector) => document.querySelector(selector)?.textContent ?? '';
  const look = () => {
    const bar = document.querySelector('.live-run [role="progressbar"]');
    const frame = {
      status: text('.live-run .status-pill'),
      done: bar ? bar.getAttribute('aria-valuenow') : null,
      nav: text('[data-testid="nav-run"]'),
    };
    if (frame.status && JSON.stringify(frame) !== JSON.stringify(seen.at(-1))) seen.push(frame);
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})()`;
let disk: FakeDisk | undefined;

before(async () => {
  if (skip) return;
  // The default reserve lets the check fill about 1 GB of the 2 GB it claims; it keeps less.
  const realBytes = Math.round(((0.15 + 0.6 * random()) * 0.9e9) / 4096) * 4096;
  disk = makeFakeDisk(realBytes, 2 * 1024 ** 3);
  ui = await startUiSession('ui-capacity');
});

after(async () => {
  await ui?.close();
  disk?.remove();
});

test(
  'the Capacity check button fills the stick, reads it back, and says it stores less than it claims',
  { skip, timeout: 240_000 },
  async () => {
    const page = await ui!.openPage('#/bench', { colorScheme: 'light' });
    await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
    await page.getByLabel('Test files go in').fill(disk!.dir);
    await page.getByRole('button', { name: 'Use this folder' }).click();
    await page.getByText('Plumb writes into a new folder inside').waitFor();
    assert.equal(await page.getByLabel('Scale', { exact: true }).inputValue(), '0.01');
    await page.getByText('Capacity check', { exact: true }).click();
    // A capacity check proves only what it fills: always at full size, no scale offered.
    assert.equal(await page.getByLabel('Scale', { exact: true }).count(), 0);
    assert.equal(
      await page.getByLabel('Verify every byte afterwards').count(),
      0,
      'it always does',
    );
    const summary = page.getByText(/^Capacity check on .*: [\d.]+ [MG]B written, about /);
    await summary.waitFor();
    await ui!.shoot(page, 'capacity-setup');
    await page.evaluate(recordFrames);
    await page.getByRole('button', { name: 'Start test' }).click();

    await page.getByText('Finished and saved to').waitFor({ timeout: 200_000 });
    const verdict = page.getByTestId('capacity-verdict');
    const words = (await verdict.textContent()) ?? '';
    assert.match(
      words,
      /^Capacity check failed: [\d.]+ [kMG]?B of [\d.]+ [MG]B read back wrong from .*: this drive .*\.$/,
    );
    assert.match(
      (await page.getByTestId('verify-verdict').textContent()) ?? '',
      /did not come back as written/,
    );
    await ui!.shoot(page, 'capacity-failed');
    const frames = (await page.evaluate('window.seenFrames')) as Frame[];
    const reading = frames.filter((f) => f.status === 'Reading back');
    assert.ok(reading.length > 0, `the read-back was shown: ${JSON.stringify(frames)}`);
    for (const frame of reading) {
      const done = Number(frame.done);
      assert.ok(done >= 45 && done < 100, `read-back at ${done} %`);
    }
    const going = frames.filter((f) => f.status === 'Writing' || f.status === 'Reading back');
    assert.ok(
      going.every((f) => f.done !== '100' && !/100 %/.test(f.nav)),
      `100 % shown while the check went on: ${JSON.stringify(going.filter((f) => f.done === '100' || /100 %/.test(f.nav)))}`,
    );
    assert.deepEqual(
      readdirSync(disk!.dir).filter((n) => n.startsWith('plumb-test-')),
      [],
      'the test files are gone',
    );
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);
