/**
 * The result charts (issue 25), in real Chromium through `plumb serve`:
 * - the mouse wheel over a chart zooms it, as its Reset zoom button and label say (it scrolled
 *   the page: only Ctrl + wheel zoomed); a wheel turned outwards over a chart at full view
 *   scrolls the page on;
 * - the axis of data so far starts at 0, not at the first point, and the rate axis leaves room
 *   above the highest point (the top points were cut by the chart's edge);
 * - a cache cliff's label sits beside its line where no point is drawn (it covered the fast
 *   points before the drop), on the right of the line, or on its left when the drop is late;
 * - a chart with nothing to draw says so, with no axes (it drew "1 B/s" up its rate axis).
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { storedRateCurve } from '../../app/common/sample-rates.js';
import { phaseSummary } from '../../app/core/analysis/phase-summary.js';
import { analyzeCsvText, reanalyzeDocument } from '../../app/core/bench/analyze.js';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { runPlumb } from '../helpers/cli.js';
import { modelWritePhase } from '../helpers/model-write-phase.js';
import { storeResult, writePhaseDocument } from '../helpers/saved-results.js';
import { baseSeed, seededRandom } from '../helpers/synthetic-samples.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const noChromium = chromiumMissingReason();
if (noChromium) console.log(`# skipping the chart tests: ${noChromium}`);

const GB = 1e9;
const MB = 1e6;
let ui: UiSession | undefined;

before(async () => {
  if (!noChromium) ui = await startUiSession('charts');
});
after(async () => {
  await ui?.close();
});

/** A saved sustained write of 6 GB: 2 GB/s until `cliffAt` bytes, then 0.45 GB/s. */
function cliffRun(id: string, cliffAt: number, random: () => number): ResultDocument {
  const phase = modelWritePhase({
    totalBytes: 6 * GB,
    rate: (bytes) => (bytes < cliffAt ? 2 * GB : 0.45 * GB),
    random,
    fileBytes: () => (100 + random() * 100) * MB,
  });
  return reanalyzeDocument(
    writePhaseDocument(phase, {
      id,
      plan: { name: 'sustained' },
      environment: {
        os: 'linux 6.1',
        volume: { path: '/mnt/fast', fsType: 'ext4', totalBytes: 1e12, freeBytes: 6e11, bus: null },
        cacheMode: 'direct',
      },
    }),
  );
}

/** What the tests read of a canvas in the page (their types have no DOM). */
interface CanvasLike {
  width: number;
  height: number;
  clientWidth: number;
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  };
}

interface Drawn {
  x: [number, number];
  y: [number, number];
  area: [number, number, number, number];
}

async function drawn(canvas: Locator): Promise<Drawn> {
  const range = async (name: string) =>
    (await canvas.getAttribute(name))!.split(/[:,]/).map(Number);
  return {
    x: (await range('data-x-range')) as [number, number],
    y: (await range('data-y-range')) as [number, number],
    area: (await range('data-area')) as [number, number, number, number],
  };
}

async function chartOf(page: Page, name: RegExp): Promise<Locator> {
  const canvas = page.getByRole('img', { name });
  await canvas.waitFor();
  await canvas.scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (element) => element?.getAttribute('data-area') !== null,
    await canvas.elementHandle(),
  );
  return canvas;
}

/**
 * The box, in CSS pixels of the canvas, of the pixels in `rgb` that lie more than 4 px from the
 * vertical line at `lineX`: a cliff's label, told from its line. Null when there are none.
 */
async function labelBox(
  canvas: Locator,
  rgb: [number, number, number],
  lineX: number,
): Promise<[number, number, number, number] | null> {
  return canvas.evaluate(
    (c: CanvasLike, [rgb, lineX]) => {
      const ratio = c.width / c.clientWidth;
      const pixels = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let box: [number, number, number, number] | null = null;
      for (let py = 0; py < c.height; py += 1)
        for (let px = 0; px < c.width; px += 1) {
          const i = (py * c.width + px) * 4;
          const near =
            Math.abs(pixels[i]! - rgb[0]) +
            Math.abs(pixels[i + 1]! - rgb[1]) +
            Math.abs(pixels[i + 2]! - rgb[2]);
          if (near > 24 || pixels[i + 3]! < 200) continue;
          const [x, y] = [px / ratio, py / ratio];
          if (Math.abs(x - lineX) <= 4) continue;
          box = box
            ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)]
            : [x, y, x, y];
        }
      return box;
    },
    [rgb, lineX] as const,
  );
}

describe('result charts', { skip: noChromium }, () => {
  it('a quick sustained run: the wheel zooms, data so far from 0, room above the top point', async () => {
    const disk = mkdtempSync(path.join(os.tmpdir(), 'plumb-charts-disk-'));
    const run = runPlumb(['bench', disk, '--plan', 'sustained', '--scale', '0.01', '--json', '-']);
    assert.equal(run.status, 0, run.stderr);
    const document = ResultDocument.parse(JSON.parse(run.stdout));
    const curve = storedRateCurve(document.samplesByPhase?.write);
    assert.ok(curve);
    const page = await ui!.openPage(`#/results/${document.id}`, {
      viewport: { width: 1280, height: 800 },
    });
    const canvas = await chartOf(page, /^Rate against data written/);
    const shown = await drawn(canvas);
    assert.equal(shown.x[0], 0, `data so far starts at 0 (${shown.x.join(' to ')})`);
    const top = Math.max(...curve.rate);
    assert.ok(shown.y[1] >= top * 1.05, `room above ${top}: the axis ends at ${shown.y[1]}`);

    // The wheel over the chart zooms it and leaves the page where it was.
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const scrollY = () => page.evaluate('window.scrollY') as Promise<number>;
    const scrolled = await scrollY();
    await page.mouse.wheel(0, -400);
    await page.locator('canvas[data-zoomed="true"]').waitFor();
    const zoomed = await drawn(canvas);
    assert.ok(zoomed.x[1] - zoomed.x[0] < shown.x[1] - shown.x[0], 'zoomed in');
    assert.equal(await scrollY(), scrolled, 'the page did not scroll');
    assert.match((await canvas.getAttribute('aria-label'))!, /Scroll, drag a box/);
    await canvas.focus();
    await page.keyboard.press('0');
    await page.locator('canvas[data-zoomed="true"]').waitFor({ state: 'detached' });
    // Outwards over a chart at full view: the wheel is left to the page (not prevented, so the
    // page scrolls on), and the chart stays as it is.
    await page.evaluate(`{
      window.wheels = [];
      window.addEventListener('wheel', (event) => window.wheels.push(event.defaultPrevented));
    }`);
    await page.mouse.wheel(0, 300);
    await page.waitForFunction('window.wheels.length > 0');
    assert.deepEqual(await page.evaluate('window.wheels'), [false]);
    assert.equal(await canvas.getAttribute('data-zoomed'), 'false');
    assert.deepEqual(ui!.problems, []);
    await page.close();
  });

  for (const [when, cliffAt, side] of [
    ['early', 2 * GB, 'right'],
    ['late', 5 * GB, 'left'],
  ] as const) {
    it(`an ${when} cache cliff: its label is on the ${side} of the line, over no point`, async () => {
      const document = storeResult(
        cliffRun(
          `20261101-12000${side === 'right' ? 1 : 2}-c11f`,
          cliffAt,
          seededRandom(baseSeed()),
        ),
      );
      const cliff = document.findings.find((f) => f.kind === 'cliff');
      assert.ok(cliff, `a cliff is found: ${document.findings.map((f) => f.kind).join(', ')}`);
      const page = await ui!.openPage(`#/results/${document.id}`, {
        viewport: { width: 1280, height: 800 },
        colorScheme: 'light',
      });
      const canvas = await chartOf(page, /^Rate against data written/);
      await ui!.shoot(page, `charts-cliff-${when}`);
      const { x, y, area } = await drawn(canvas);
      const toPixel = (bytes: number, rate: number) => [
        area[0] + ((bytes - x[0]) / (x[1] - x[0])) * (area[2] - area[0]),
        area[3] - ((rate - y[0]) / (y[1] - y[0])) * (area[3] - area[1]),
      ];
      const atBytes = (cliff as { atBytes?: number }).atBytes ?? cliffAt;
      const [lineX] = toPixel(atBytes, 0);
      // The light theme's cliff colour, #a16207.
      const label = await labelBox(canvas, [0xa1, 0x62, 0x07], lineX!);
      assert.ok(label, 'the label is drawn');
      assert.ok(
        side === 'right' ? label[0] > lineX! : label[2] < lineX!,
        `on the ${side} of the line at ${lineX}: ${label.join(', ')}`,
      );
      assert.ok(
        label[0] > area[0] + 1 &&
          label[2] < area[2] - 1 &&
          label[1] > area[1] &&
          label[3] < area[3],
        `the whole label inside the plot ${area.join(', ')}: ${label.join(', ')}`,
      );
      const curve = storedRateCurve(document.samplesByPhase!.write)!;
      let covered = 0;
      for (let i = 0; i < curve.rate.length; i += 1) {
        const [px, py] = toPixel(curve.endBytes[i]!, curve.rate[i]!);
        if (
          px! >= label[0] - 2 &&
          px! <= label[2] + 2 &&
          py! >= label[1] - 2 &&
          py! <= label[3] + 2
        )
          covered += 1;
      }
      assert.equal(covered, 0, `points under the label ${label.join(', ')}`);
      assert.deepEqual(ui!.problems, []);
      await page.close();
    });
  }

  it('a chart with nothing to draw says so and draws no axes', async () => {
    // Files that took no measurable time: no rate to draw on either chart.
    const files = [1, 2, 3].map((n) => ({
      phase: 'write' as const,
      bytes: n * MB,
      seconds: 0,
      cumulativeBytes: (n * (n + 1) * MB) / 2,
      t: n,
      temperatureC: null,
    }));
    const analysed = analyzeCsvText('bytes,seconds\n1,1\n', { appVersion: '0.1.0' });
    const document = storeResult(
      ResultDocument.parse({
        ...analysed,
        id: '20261101-120003-e0e0',
        plan: { name: 'standard' },
        files,
        summary: { write: phaseSummary(files), read: phaseSummary([]) },
        findings: [],
        headline: undefined,
      }),
    );
    const page = await ui!.openPage(`#/results/${document.id}`, {
      viewport: { width: 1280, height: 800 },
    });
    const chart = page.locator('figure.chart-card').filter({ hasText: 'Rate against file size' });
    await chart.getByText('No file of this run has a rate to draw.').waitFor();
    const canvas = await chartOf(page, /^Rate against file size/);
    const inked = await canvas.evaluate((c: CanvasLike) => {
      const pixels = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let count = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) count += 1;
      return count;
    });
    assert.equal(inked, 0, 'nothing drawn on the empty chart');
    await page.close();
  });
});
