/**
 * Verdicts that agree with their own charts and figures (issue 23), in real Chromium through
 * `plumb serve`, at 800×600 and 1280×800, light and dark, with screenshots in test-artifacts/:
 * - a real sustained run at --scale 0.1 on a loop disk whose bus is unknown: its findings, or
 *   in their place a sentence that calls the rate steady only when the drawn curve is, and
 *   claims no interface ceiling;
 * - the 10 % run, saved by an earlier Plumb with no finding beside a chart falling from
 *   about 8 to 0.6 GB/s: never "steady" nor "nothing unusual";
 * - reads of 8-21 GB/s from a disk without a known bus (a CSV from another tool): called served
 *   from memory or a cache;
 * - a replayed cache cliff (a throttled disk's own samples): the measured sentence first, its
 *   reason behind "Why?";
 * - a real queue-depth grid: "at its best" gives the best random IOPS the grid shows.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { formatIops } from '../../app/common/format.js';
import { analyzeCsvText, reanalyzeDocument } from '../../app/core/bench/analyze.js';
import { quietVerdict } from '../../renderer/src/ui/result/quiet-verdict.js';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { repoRoot, runPlumb } from '../helpers/cli.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { modelWritePhase } from '../helpers/model-write-phase.js';
import { storeResult, writePhaseDocument } from '../helpers/saved-results.js';
import { clippedContent } from '../helpers/overflow.js';
import { baseSeed, seededRandom } from '../helpers/synthetic-samples.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const noChromium = chromiumMissingReason();
if (noChromium) console.log(`# skipping the verdict UI tests: ${noChromium}`);
const noLoop = loopSkipReason('ext4');
if (noLoop) console.log(`# skipping the sustained run on a loop disk: ${noLoop}`);

const GB = 1e9;
const MB = 1e6;
const views = [
  { width: 800, height: 600, scheme: 'light' },
  { width: 800, height: 600, scheme: 'dark' },
  { width: 1280, height: 800, scheme: 'light' },
  { width: 1280, height: 800, scheme: 'dark' },
] as const;

let ui: UiSession | undefined;
let scratch: string;
let disk: MountedFs | undefined;

/** Runs `plumb bench` as a user would and returns the saved document. */
function bench(args: string[]): ResultDocument {
  const out = path.join(scratch, `run-${Math.random().toString(36).slice(2)}.json`);
  const run = runPlumb(['bench', ...args, '--json', out]);
  assert.equal(run.status, 0, run.stderr);
  return ResultDocument.parse(JSON.parse(readFileSync(out, 'utf8')));
}

async function openResult(id: string, view: (typeof views)[number]): Promise<Page> {
  const page = await ui!.openPage(`#/results/${id}`, {
    colorScheme: view.scheme,
    viewport: { width: view.width, height: view.height },
  });
  await page.getByRole('article').first().waitFor();
  return page;
}

const findingsOf = (page: Page) =>
  page
    .locator('section.verdict-section')
    .filter({ has: page.getByRole('heading', { name: 'Findings' }) });

/** The 10 % sustained run: ~8 GB/s into memory and the drive's cache, then 0.6 GB/s. */
function fallingRun(random: () => number): ResultDocument {
  const phase = modelWritePhase({
    totalBytes: 6 * GB,
    rate: (bytes) => 0.6 * GB + 7.4 * GB * Math.exp(-bytes / (0.3 * GB)),
    random,
    fileBytes: () => (20 + random() * 180) * MB,
  });
  // Saved before the ceiling was recorded, by a Plumb that found nothing in it.
  return writePhaseDocument(phase, {
    id: '20261101-120000-fa11',
    scale: 0.1,
    plan: { name: 'sustained' },
    environment: {
      os: 'darwin 25.1',
      volume: {
        path: '/Volumes/Quick',
        fsType: 'apfs',
        totalBytes: 1e12,
        freeBytes: 6e11,
        bus: null,
      },
      cacheMode: 'direct',
    },
  });
}

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'plumb-verdicts-'));
  if (noChromium) return;
  ui = await startUiSession('verdicts');
});

after(async () => {
  await ui?.close();
  disk?.unmount();
  rmSync(scratch, { recursive: true, force: true });
});

describe('verdicts that agree with their charts and figures', { skip: noChromium }, () => {
  it(
    'a sustained run at 10 % on a disk with an unknown bus claims only what it measured',
    { skip: noLoop },
    async () => {
      disk = mountLoopFs('ext4', { sizeBytes: 3 * 1024 ** 3, directIo: true });
      const document = bench([disk.dir, '--plan', 'sustained', '--scale', '0.1', '--total', '1GB']);
      assert.equal(document.environment.volume.bus, null);
      for (const view of views) {
        const page = await openResult(document.id, view);
        const findings = (await findingsOf(page).textContent()) ?? '';
        assert.doesNotMatch(findings, /below the interface/);
        if (document.findings.length === 0) {
          assert.ok(findings.includes(quietVerdict(document)), findings);
          assert.match(findings, /The bus was not reported, so no interface ceiling applies/);
        }
        assert.deepEqual(await clippedContent(page), [], `${view.width}×${view.height}`);
        await ui!.shoot(page, `verdicts-sustained-${view.width}-${view.scheme}`);
        await page.close();
      }
      console.log(
        `# sustained run ${document.id}: findings ${document.findings.map((f) => f.kind).join(', ') || 'none'}`,
      );
    },
  );

  it("the issue's falling 10 % run is never called steady", async () => {
    const seed = baseSeed();
    const document = storeResult(fallingRun(seededRandom(seed)));
    const page = await openResult(document.id, views[2]);
    const findings = (await findingsOf(page).getByTestId('findings-empty').textContent()) ?? '';
    assert.doesNotMatch(findings, /steady|nothing unusual|ceiling/i, `seed ${seed}: ${findings}`);
    assert.match(
      findings,
      /^No finding, but the chart shows more: the write rate fell from about \S+ GB\/s to (?:5[5-9]|6[0-5])\d MB\/s/,
    );
    await ui!.shoot(page, 'verdicts-falling-1280-light');
    await page.close();
  });

  it('reads beyond any SSD, on a disk with no known bus, are called memory or a cache', async () => {
    const random = seededRandom(baseSeed());
    const rows = Array.from({ length: 12 }, () => `256000000,${256e6 / (8e9 + random() * 13e9)}`);
    const analysed = analyzeCsvText(['bytes,seconds', ...rows].join('\n'), {
      appVersion: '0.1.0',
      phase: 'read',
    });
    const document = storeResult({ ...analysed, id: '20261101-120000-fa57' });
    const page = await openResult(document.id, views[0]);
    const card = page.locator('li.finding').filter({ hasText: 'Faster than any SSD' });
    assert.match(
      (await card.textContent()) ?? '',
      /12 files read went faster than any SSD Plumb knows of .*served from memory or a cache/,
    );
    assert.doesNotMatch(
      (await page.getByRole('article').textContent()) ?? '',
      /below the interface|Nothing unusual/,
    );
    await ui!.shoot(page, 'verdicts-memory-800-light');
    await page.close();
  });

  it("a replayed cliff leads with what was measured, its reason one click away ('Why?')", async () => {
    const replay = path.join(repoRoot, 'tests/fixtures/replays/cliff-run4.json');
    const document = storeResult(
      reanalyzeDocument(ResultDocument.parse(JSON.parse(readFileSync(replay, 'utf8')))),
    );
    const cliff = document.findings.find((f) => f.kind === 'cliff');
    assert.ok(cliff && cliff.kind === 'cliff');
    for (const view of views) {
      const page = await openResult(document.id, view);
      const card = page.locator('li.finding').filter({ hasText: cliff.message });
      await card.waitFor();
      const reason = card.locator('.finding-reason');
      assert.equal(await reason.isVisible(), false, 'the reason waits behind Why?');
      await card.getByText('Why?').click();
      assert.equal(await reason.textContent(), cliff.reason);
      assert.deepEqual(await clippedContent(page), [], `${view.width}×${view.height}`);
      await ui!.shoot(page, `verdicts-cliff-why-${view.width}-${view.scheme}`);
      await page.close();
    }
  });

  it("a grid's 'at its best' is the best random IOPS its grid shows", async () => {
    const target = path.join(scratch, 'grid');
    mkdirSync(target);
    const document = bench([target, '--plan', 'presets', '--scale', '0.01']);
    const reads = document.runs!.filter((r) => r.op === 'randread');
    const best = Math.max(...reads.map((r) => r.iops));
    const page = await openResult(document.id, views[2]);
    const said = (await page.getByTestId('verdict-plain').textContent()) ?? '';
    assert.match(said, new RegExp(`random read ${formatIops(best)}`), said);
    await ui!.shoot(page, 'verdicts-grid-1280-light');
    await page.close();
    assert.deepEqual(ui!.problems, []);
  });
});
