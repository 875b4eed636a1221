// plumb-test: alone (it measures rates or times on a throttled disk; see scripts/test.mjs)
/**
 * Estimates against the clock, in real Chromium through `plumb serve` on this machine's disk:
 * after one run on a volume, the time "Test a disk" announces for each quick plan (standard,
 * sustained, the grid) is within 30 % of the time it then takes, over three runs of each taken in
 * turn: the times announced added up against the times taken, as this VM's disk drifts by 2×
 * within minutes and one short run can take twice another's time. The first run, from the
 * defaults (nothing run on the volume yet), is said to be a first guess, and the end its live view
 * says around half way is near the truth, and nearer than the guess when the guess was far off.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { median } from 'simple-statistics';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const noChromium = chromiumMissingReason();
if (noChromium) console.log(`# skipping the estimate tests: ${noChromium}`);

let ui: UiSession | undefined;
let folder: string;

before(async () => {
  if (noChromium) return;
  ui = await startUiSession('estimate');
  // On the main disk, the one the issue's users test first (its temp folder's volume).
  folder = path.join(ui.work, 'target');
  mkdirSync(folder);
});

after(() => ui?.close());

/** Seconds in a duration such as "3.7 s", "1 min 5 s" or "1 min". */
function durationSeconds(text: string): number {
  const match = /^(?:(\d+) min ?)?(?:(\d+(?:\.\d+)?) s)?$/.exec(text.trim());
  assert.ok(match && (match[1] || match[2]), `no duration in "${text}"`);
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
}

/** The start line's time, and for a sustained run what each check of the cache's recovery adds. */
function announcement(text: string): { seconds: number; perCheck: number | null } {
  // "about 4.9 s.", or on a volume with no run yet "about 4.9 s — a first guess; it improves…".
  const time = /written, about ((?:\d+ min ?)?(?:\d+(?:\.\d+)? s)?)(?:\.| —)/.exec(text);
  assert.ok(time, `no time in "${text}"`);
  const check = /about ([^,]+) for each check/.exec(text);
  return {
    seconds: durationSeconds(time[1]!),
    perCheck: check ? durationSeconds(check[1]!) : null,
  };
}

/**
 * The newest saved result: the recovery checks it ran (a sustained run makes them only after a
 * cliff), and the seconds from its start to its finish (the engine's run, without the page's).
 */
function newestResult(): { checks: number; engineSeconds: number } {
  const results = path.join(ui!.work, 'data', 'results');
  // By the time each was saved: two runs can start within the same second of their ids.
  const newest = readdirSync(results)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ name, saved: statSync(path.join(results, name)).mtimeMs }))
    .sort((a, b) => a.saved - b.saved)
    .at(-1)!.name;
  const document = JSON.parse(readFileSync(path.join(results, newest), 'utf8')) as {
    recovery?: { probes: unknown[] };
    startedAt: string;
    finishedAt: string;
  };
  return {
    checks: document.recovery?.probes.length ?? 0,
    engineSeconds: (Date.parse(document.finishedAt) - Date.parse(document.startedAt)) / 1000,
  };
}

/**
 * Run in the page as plain JavaScript (tsx would wrap a TypeScript function's inner functions in a
 * helper the page does not have): notes the page's clock at the next click and when a "New test"
 * button first shows, in window.plumbTimed, and each "Time left" the live view shows with the
 * time it showed it (seconds since the click), in window.plumbTimed.left.
 */
const startClock = `(() => {
  const timed = { start: 0, end: 0, left: [] };
  window.plumbTimed = timed;
  document.addEventListener('click', () => (timed.start ||= performance.now()), { capture: true, once: true });
  const watch = new MutationObserver(() => {
    const left = document.querySelector('[data-testid=live-left]');
    const text = left ? left.textContent.trim() : '';
    if (timed.start && !timed.end && text && text !== timed.left.at(-1)?.[1])
      timed.left.push([(performance.now() - timed.start) / 1000, text]);
    const done = [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'New test');
    if (timed.start && !timed.end && done) {
      timed.end = performance.now();
      watch.disconnect();
    }
  });
  watch.observe(document.body, { childList: true, subtree: true, characterData: true });
})()`;

/**
 * Runs `planTitle` at quick scale. The time is taken in the page, from the click on Start to the
 * moment "New test" appears (what the user waits for): Playwright's own polling would add up to
 * half a second, more than the whole of a quick sustained run's error budget.
 */
async function timedRun(page: Page, planTitle: string) {
  await page.getByText(planTitle, { exact: true }).click();
  const summary = page.locator('.start-summary');
  const text = (await summary.textContent()) ?? '';
  // The estimate the sentence rounds to a tenth of a second (a quick sustained run on a fuller
  // disk takes a tenth of a second).
  const exact = Number(await summary.getAttribute('data-seconds'));
  const exactCheck = await summary.getAttribute('data-check-seconds');
  const basis = (await page.locator('.estimate-basis').textContent()) ?? '';
  await page.evaluate(startClock);
  await page.getByRole('button', { name: 'Start test' }).click();
  await page.getByRole('button', { name: 'New test' }).waitFor({ timeout: 180_000 });
  const timed = (await page.evaluate('window.plumbTimed')) as {
    start: number;
    end: number;
    left: [number, string][];
  };
  assert.ok(timed.start > 0 && timed.end > timed.start, JSON.stringify(timed));
  const measured = (timed.end - timed.start) / 1000;
  const { checks, engineSeconds } = newestResult();
  await page.getByRole('button', { name: 'New test' }).click();
  const { seconds, perCheck } = announcement(text);
  // The sentence is the figure rounded (a tenth of a second under 10 s, a second above).
  const rounding = seconds < 10 ? 0.05 : 0.5;
  assert.ok(Math.abs(exact - seconds) <= rounding + 1e-9, `${exact} s is not "${text}"`);
  // A cliff's checks are announced apart ("about 30 s for each check"): counted as many as ran.
  const announced = exact + checks * (exactCheck === null ? (perCheck ?? 0) : Number(exactCheck));
  return { announced, measured, engineSeconds, basis, checks, text, left: timed.left };
}

/** Runs of each plan: the estimate is judged on their totals, as the disk drifts. */
const runsPerPlan = 3;

test(
  'after one run on the volume, each quick plan takes within 30 % of the time announced',
  { skip: noChromium, timeout: 400_000 },
  async (t) => {
    const page = await ui!.openPage('#/bench');
    await page.getByLabel('Test files go in').fill(folder);
    await page.getByRole('button', { name: 'Use this folder' }).click();
    await page.getByText('Plumb writes into a new folder inside').waitFor();

    // The first run here, from the defaults: said to be a guess, and the time left the live view
    // shows then follows the guess's model of the run corrected by the run's own pace. By half way
    // it cannot know how fast the disk reads (drawn disks: 13 % off at the median, 48 % at worst,
    // tests/unit/renderer/bench-time-left.test.ts); a pace of bytes alone was 45–78 % off here.
    const first = await timedRun(page, 'Standard');
    const guessError = (first.announced - first.measured) / first.measured;
    console.log(
      `# first run, no history: announced ${first.announced.toFixed(2)} s, took ${first.measured.toFixed(2)} s, ${(100 * guessError).toFixed(0)} % (${first.basis})`,
    );
    assert.match(first.text, /a first guess; it improves as the run goes\./);
    assert.match(first.basis, /^Times are a first guess/);
    const lefts = first.left
      .filter(([, text]) => /\d/.test(text))
      .map(([at, text]) => ({ at, end: at + durationSeconds(text) }));
    console.log(
      `# first run, time left shown: ${first.left.map(([at, text]) => `${at.toFixed(1)} s: ${text}`).join('; ')}`,
    );
    // Around half way (40 to 60 % of the run), the median of the ends said: between two files the
    // time left rises as the clock runs and falls when the next file lands (2.0, 2.3, 1.6 s
    // within 0.1 s as a run turned from writing to reading), so one reading is that tooth, not
    // what the view says (its first past half way was 56 % off there, the median of those around
    // it 31-38 %, as the last falls in or out).
    // (A run so short that no reading falls there is judged by the reading nearest half way.)
    const half = first.measured / 2;
    assert.ok(
      lefts.some(({ at }) => at >= half),
      "a time left is shown in the run's second half",
    );
    const fromHalf = ({ at }: { at: number }) => Math.abs(at - half);
    const inWindow = lefts.filter((left) => fromHalf(left) <= 0.1 * first.measured);
    const nearest = () => lefts.reduce((a, b) => (fromHalf(b) < fromHalf(a) ? b : a));
    const around = (inWindow.length > 0 ? inWindow : [nearest()]).map(({ end }) => end);
    const saidEnd = median(around);
    const lateError = (saidEnd - first.measured) / first.measured;
    console.log(
      `# first run, its end as said around half way: ${(100 * lateError).toFixed(0)} % off (the median of ${around.length} readings)`,
    );
    assert.ok(
      Math.abs(lateError) <= 0.5,
      'the end said around half way is within 50 % of the truth',
    );
    if (Math.abs(guessError) > 0.4)
      assert.ok(Math.abs(lateError) < Math.abs(guessError), 'and nearer it than the first guess');
    // Each plan three times in turn, each run announced from the runs before it; the grid's
    // first is estimated from the defaults, its later ones from its own runs.
    const percent = (error: number) => `${error >= 0 ? '+' : ''}${(100 * error).toFixed(0)} %`;
    const runs = new Map<string, { announced: number; measured: number }[]>();
    for (let round = 1; round <= runsPerPlan; round += 1) {
      for (const plan of ['Standard', 'Sustained write', 'Queue-depth grid']) {
        const { announced, measured, engineSeconds, basis, checks } = await timedRun(page, plan);
        // The engine's own start to finish beside the page's click to "New test": what the app
        // adds around a run, which no estimate has a figure for.
        console.log(
          `# ${plan} (${round} of ${runsPerPlan}): announced ${announced.toFixed(2)} s, took ${measured.toFixed(2)} s (the engine ${engineSeconds.toFixed(2)} s), ${percent((announced - measured) / measured)}` +
            `${checks ? `, ${checks} recovery check(s)` : ''} (${basis})`,
        );
        if (plan !== 'Queue-depth grid' || round > 1)
          assert.match(
            basis,
            /your last (?:\d+ )?runs?(?: of this test)?(?: and (?:one other run|\d+ other runs))? on this volume/,
          );
        runs.set(plan, [...(runs.get(plan) ?? []), { announced, measured }]);
      }
    }
    // Judged on the totals: a quick sustained run on a fuller disk writes tens of megabytes and
    // its flush alone took 0.05 to 0.21 s from one run to the next here, so each run's own error
    // is the disk's jitter (+130, +23, -70 % in one test) while the totals say whether the
    // estimate is right (-7 % there); the standard plan and the grid last seconds either way.
    for (const [plan, list] of runs) {
      await t.test(plan, () => {
        const announced = list.reduce((sum, run) => sum + run.announced, 0);
        const measured = list.reduce((sum, run) => sum + run.measured, 0);
        const error = (announced - measured) / measured;
        assert.ok(
          Math.abs(error) <= 0.3,
          `${plan}: announced ${announced.toFixed(2)} s in all, took ${measured.toFixed(2)} s, ${percent(error)} (the runs: ${list.map((run) => percent((run.announced - run.measured) / run.measured)).join(', ')})`,
        );
      });
    }
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);
