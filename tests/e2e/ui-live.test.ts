// plumb-test: alone
/**
 * The live view of a sustained write in real Chromium, on a throttled loop disk whose write cap
 * drops partway (a cache running out): the rate-against-bytes chart grows from in-file samples at
 * least twice a second, the big Write figure shows the rate now (and no Read card: the plan reads
 * nothing), and the step shows on the chart. Screenshots to test-artifacts/live-*.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { formatBytes } from '../../app/common/format.js';
import { sampleRates } from '../../app/common/sample-rates.js';
import type { FileRecord, Finding } from '../../app/contract/bench-result.js';
import { findings } from '../../app/core/analysis/findings.js';
import { chromiumMissingReason } from '../helpers/chromium.js';
import type { startServe } from '../helpers/cli.js';
import { loopSkipReason } from '../helpers/loopfs.js';
import {
  baseSeed,
  between,
  fileRecords,
  seededRandom,
  sustainedStream,
} from '../helpers/synthetic-samples.js';
import { mountThrottledDisk, throttleSkipReason } from '../helpers/throttle.js';
import { artifactsDir, startUiSession, type UiSession } from '../helpers/ui-session.js';
import { resultDocument } from '../unit/renderer/bench-fixtures.js';

const seed = baseSeed();
const GB = 1e9;

const noChromium = chromiumMissingReason();
const skip = noChromium ?? loopSkipReason('ext4') ?? throttleSkipReason();
if (skip) console.log(`# skipping the live chart UI test: ${skip}`);

const artifacts = artifactsDir;
/** The page errors of every test's session, checked at the end. */
const problems: string[] = [];

/**
 * `work` on a UI session of its own (each test has its own server: one runs in a throttled
 * disk's cgroup), its page errors kept in `problems`, the session closed after.
 */
async function withUi(
  name: string,
  serve: Parameters<typeof startServe>[1],
  work: (ui: UiSession) => Promise<void>,
): Promise<void> {
  const ui = await startUiSession(`live-${name}`, { serve });
  try {
    await work(ui);
  } finally {
    problems.push(...ui.problems);
    await ui.close();
  }
}

/** On "Test a disk": the folder typed as a user does, the plan chosen, Start. */
async function startPlan(page: Page, folder: string, planTitle: string): Promise<void> {
  await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
  await page.getByLabel('Test files go in').fill(folder);
  await page.getByRole('button', { name: 'Use this folder' }).click();
  await page.getByText(planTitle, { exact: true }).click();
  await page.getByRole('button', { name: 'Start test' }).click();
}

/** What the big Write and Read cards showed at one moment. */
interface BigFigure {
  /** The card's name: "Write rate, now". */
  label: string;
  value: string;
  note: string;
}
type BigFigures = Partial<Record<'write' | 'read', BigFigure>>;

/**
 * Run in the page as plain JavaScript: notes in window.plumbBigFigures each different state of the
 * big Write and Read cards (their names, which say the state, figures and notes), as the DOM
 * changes.
 */
const recordBigFigures = `(() => {
  const seen = [];
  window.plumbBigFigures = seen;
  const text = (node, selector) => node.querySelector(selector)?.textContent.trim() ?? '';
  const note = () => {
    const now = {};
    for (const card of document.querySelectorAll('.live-big-card')) {
      const direction = card.classList.contains('live-big-write') ? 'write' : 'read';
      now[direction] = {
        label: card.getAttribute('aria-label'),
        value: text(card, '.live-big-value'),
        note: text(card, '.live-big-note'),
      };
    }
    if (Object.keys(now).length && JSON.stringify(now) !== JSON.stringify(seen.at(-1)))
      seen.push(now);
  };
  new MutationObserver(note).observe(document.body, {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
  });
})()`;

/** The samples behind the "Rate against data written" chart, as its figure reports them. */
async function samplesDrawn(page: Page): Promise<{ samples: number; points: number }> {
  const figure = page.locator('figure.chart-card', {
    has: page.getByRole('heading', { name: 'Rate against data written' }),
  });
  return {
    samples: Number(await figure.getAttribute('data-samples')),
    points: Number(await figure.getAttribute('data-points')),
  };
}

test(
  'a sustained write draws rate against bytes from samples, at least twice a second, with big figures',
  { skip, timeout: 240_000 },
  async () => {
    // 30 MB/s for the first 60 MB, then 10 MB/s: about 2 s fast, then about 10 s slow.
    const cliffBytes = 60e6;
    const disk = mountThrottledDisk(200 * 1024 ** 3, 30e6);
    try {
      const lowered = disk.throttle.lowerAfter(cliffBytes, 10e6);
      await withUi('sustained', { cgroupProcsFile: disk.throttle.procsFile }, async (ui) => {
        const page = await ui.openPage('#/bench', { colorScheme: 'light' });
        await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
        await page.getByLabel('Test files go in').fill(disk.fs.dir);
        await page.getByRole('button', { name: 'Use this folder' }).click();
        await page.getByText('Sustained write', { exact: true }).click();
        await page.getByLabel('Write in all').fill('160MB');
        await page.getByLabel('Time the recovery after a cliff').uncheck();
        await page.getByRole('button', { name: 'Start test' }).click();
        const live = page.getByRole('article', { name: /^Sustained write on / });
        await live.waitFor();

        // The big Write figure, the rate now; no Read card for a plan that reads nothing.
        const write = page.getByTestId('live-big-write');
        await write.filter({ hasText: /B\/s$/ }).waitFor({ timeout: 60_000 });
        assert.match((await write.textContent()) ?? '', /^[\d.]+ [kMG]?B\/s$/);
        assert.equal(await page.getByTestId('live-big-read').count(), 0, 'no Read card');
        await live.getByRole('region', { name: 'Write rate, now' }).waitFor();

        // The chart grows as samples arrive: count its updates over four seconds.
        const seen: { ms: number; samples: number }[] = [];
        const started = Date.now();
        while (Date.now() - started < 4000) {
          const { samples, points } = await samplesDrawn(page);
          if (seen.at(-1)?.samples !== samples) seen.push({ ms: Date.now() - started, samples });
          assert.ok(points <= 1600, `${points} points drawn`);
          await page.waitForTimeout(50);
        }
        const updates = seen.length - 1;
        const seconds = (seen.at(-1)!.ms - seen[0]!.ms) / 1000;
        console.log(
          `# live chart: ${updates} updates in ${seconds.toFixed(2)} s (${(updates / seconds).toFixed(1)} Hz), ${seen[0]!.samples} → ${seen.at(-1)!.samples} samples`,
        );
        assert.ok(updates / 4 >= 2, `the chart updated ${updates} times in 4 s`);
        await page.waitForTimeout(250);
        await page.screenshot({
          path: path.join(artifacts, 'live-sustained-light.png'),
          fullPage: true,
        });

        // After the cliff: the chart marks it, the big figure shows the slow rate.
        await live
          .getByRole('img', { name: /^Rate against data written\. .* Cache cliff at / })
          .waitFor({ timeout: 90_000 });
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.waitForTimeout(400);
        await page.screenshot({
          path: path.join(artifacts, 'live-cliff-dark.png'),
          fullPage: true,
        });
        const now = (await write.textContent()) ?? '';
        const rate = Number(/^([\d.]+) MB\/s$/.exec(now)?.[1]);
        assert.ok(rate > 5 && rate < 16, `after the cliff the Write figure says ${now}`);
        lowered.stop();
        await page.getByRole('button', { name: 'Cancel test' }).click();
        await page.getByText(/^Cancelled\./).waitFor({ timeout: 60_000 });
        await page.close();
      });
    } finally {
      disk.remove();
    }
  },
);

test(
  'the grid shows big Write and Read figures of the run going on, a run count, no bytes written',
  { skip: noChromium, timeout: 180_000 },
  async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'plumb-ui-live-grid-'));
    try {
      await withUi('grid', {}, async (ui) => {
        const page = await ui.openPage('#/bench', { colorScheme: 'light' });
        await startPlan(page, folder, 'Queue-depth grid');
        await page.getByRole('region', { name: /^Read rate, now$/ }).waitFor({ timeout: 60_000 });
        assert.match((await page.getByTestId('live-big-read').textContent()) ?? '', /B\/s$/);
        assert.match((await page.getByTestId('live-runs').textContent()) ?? '', /^\d+ \/ \d+$/);
        assert.equal(await page.getByTestId('live-written').count(), 0, 'no bytes written card');
        assert.equal(await page.getByTestId('live-files').count(), 0, 'no files card');
        await page.getByRole('region', { name: /^Write rate, (now|done)$/ }).waitFor({
          timeout: 90_000,
        });
        await page.waitForTimeout(300);
        await page.screenshot({
          path: path.join(artifacts, 'live-grid-light.png'),
          fullPage: true,
        });
        await page.getByText('Finished and saved to').waitFor({ timeout: 120_000 });
        await page.close();
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
);

test(
  'a standard test: Write now, Read up next; then Write done (its average) while Read is measured',
  { skip: noChromium, timeout: 240_000 },
  async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'plumb-ui-live-standard-'));
    try {
      await withUi('standard', {}, async (ui) => {
        const page = await ui.openPage('#/bench', { colorScheme: 'light' });
        // A quick standard run writes for about a second: polling for one state and then the
        // next could miss it, so the page notes every state its big figures pass through.
        await page.evaluate(recordBigFigures);
        await startPlan(page, folder, 'Standard');
        // The screenshot while Read is measured, unless the run has finished before it is seen.
        const readNow = page.getByRole('region', { name: 'Read rate, now' });
        const finished = page.getByText('Finished and saved to');
        await readNow.or(finished).first().waitFor({ timeout: 180_000 });
        if (await readNow.count()) {
          await page.waitForTimeout(300);
          await page.screenshot({
            path: path.join(artifacts, 'live-standard-read-light.png'),
            fullPage: true,
          });
        }
        await finished.waitFor({ timeout: 180_000 });
        const seen = (await page.evaluate('window.plumbBigFigures')) as BigFigures[];
        const shown = (figures: BigFigures) => JSON.stringify(figures);
        const writing = seen.findIndex(
          (f) => f.write?.label === 'Write rate, now' && f.read?.label === 'Read rate, next',
        );
        assert.ok(writing >= 0, `Write now with Read up next, in ${seen.map(shown).join(' ')}`);
        assert.equal(seen[writing]!.read!.value, 'Up next', 'no Read figure before reading');
        const reading = seen.findIndex(
          (f, i) =>
            i > writing &&
            f.write?.label === 'Write rate, done' &&
            f.read?.label === 'Read rate, now' &&
            /B\/s$/.test(f.read.value),
        );
        assert.ok(
          reading >= 0,
          `then Write done while Read is measured, in ${seen.map(shown).join(' ')}`,
        );
        const write = seen[reading]!.write!;
        assert.match(`${write.value} ${write.note}`, /B\/s .*average of .* written/);
        await page.close();
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
);

test(
  'a result with stored samples draws rate against bytes from them, every step marked where the findings say',
  { skip: noChromium, timeout: 120_000 },
  async () => {
    // Three stages, as lab reviews show them: full speed, a slower cache, then folding.
    const random = seededRandom(seed);
    const first = between(random, 20, 60) * GB;
    const second = first + between(random, 40, 80) * GB;
    const stream = sustainedStream({
      random,
      totalBytes: second * 1.6,
      cadenceSeconds: 0.02, // thousands of samples: more than a chart draws
      maxSampleBytes: (second * 1.6) / 20_000,
      drive: (bytes) => (bytes < first ? 6 * GB : bytes < second ? 2.2 * GB : 1 * GB),
    });
    const files = fileRecords(stream).map((f) => ({ ...f, temperatureC: null }));
    const found = findings({ files, cacheMode: 'direct', samples: { write: stream } });
    const cliff = found.find((f) => f.kind === 'cliff');
    assert.ok(
      cliff?.kind === 'cliff' && cliff.steps?.length === 3,
      `seed ${seed}: ${JSON.stringify(found)}`,
    );
    const steps = cliff.steps;
    const samples = { t: stream.t, bytes: stream.bytes, file: stream.file };
    const document = resultDocument(
      'live-samples-result',
      files as FileRecord[],
      { samplesByPhase: { write: samples } } as object,
      found as Finding[],
    );
    // The result is in place before the server starts, in a data folder of the test's own.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-ui-live-data-'));
    const results = path.join(dataDir, 'results');
    mkdirSync(results, { recursive: true });
    writeFileSync(path.join(results, `${document.id}.json`), JSON.stringify(document));

    try {
      await withUi('samples', { env: { PLUMB_DATA_DIR: dataDir } }, async (ui) => {
        const page = await ui.openPage(`#/results/${document.id}`, { colorScheme: 'light' });
        const chart = page.getByRole('img', {
          name: /^Rate against data written\. .* Slower again at /,
        });
        await chart.waitFor({ timeout: 30_000 });
        const name = (await chart.getAttribute('aria-label')) ?? '';
        for (const step of steps.slice(1))
          assert.ok(
            name.includes(`at ${formatBytes(step.atBytes)}:`),
            `${formatBytes(step.atBytes)} in ${name}`,
          );
        const { samples: drawnFrom, points } = await samplesDrawn(page);
        assert.equal(
          drawnFrom,
          sampleRates(samples).rate.length,
          'every sample interval is behind the line',
        );
        assert.ok(points <= 1600 && points < drawnFrom, `${points} points drawn of ${drawnFrom}`);
        await page.waitForTimeout(300);
        await page.screenshot({
          path: path.join(artifacts, 'live-result-samples-light.png'),
          fullPage: true,
        });
        await page.close();
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);

test('no console errors or warnings', { skip: noChromium }, () => {
  assert.deepEqual(problems, []);
});
