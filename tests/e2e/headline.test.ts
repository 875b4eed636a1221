/**
 * One run, one headline per direction, everywhere: `plumb bench`'s summary, `plumb results list`,
 * the CSV export, the planner's measured option (`plumb plan`), the PDF of `plumb report` (read
 * back with pdftotext), and in the browser UI the results list, the result page, its Details and
 * the compare view; all label the run as a quick one (the UI's default scale, 1 %) and say the
 * sizes it used, not the full plan's. The headline never lies outside the rates its files of 2 MB
 * or more had (within 10 %).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { formatRate } from '../../app/common/format.js';
import { driveRateMinBytes, headline } from '../../app/common/headline-rate.js';
import type { DiskResult } from '../../app/contract/planner.js';
import { computeHeadline } from '../../app/core/analysis/headline-rate.js';
import {
  chromiumMissingReason,
  chromiumPath,
  launchChromium,
  openAppPage,
} from '../helpers/chromium.js';
import { repoRoot, runPlumb, startServe } from '../helpers/cli.js';
import { pdfText, popplerMissingReason } from '../helpers/pdf.js';

const skip = chromiumMissingReason() ?? popplerMissingReason();
const artifacts = path.join(repoRoot, 'test-artifacts');
/** Where a page's picture is kept for people to look at. */
const picture = (name: string) => ({ path: path.join(artifacts, `headline-${name}.png`) });

let work: string;
let env: NodeJS.ProcessEnv;
let document: ResultDocument;
let benchOut: string;
let write: string;
let read: string;

describe('one headline for one run, everywhere', { skip }, () => {
  before(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'plumb-headline-'));
    env = { PLUMB_DATA_DIR: path.join(work, 'data') };
    const target = path.join(work, 'target');
    mkdirSync(target);
    const json = path.join(work, 'run.json');
    const seed = String(Math.floor(Math.random() * 1e6));
    const bench = runPlumb(
      ['bench', target, '--plan', 'standard', '--scale', '0.01', '--seed', seed, '--json', json],
      { env },
    );
    assert.equal(bench.status, 0, bench.stderr);
    benchOut = bench.stdout;
    document = ResultDocument.parse(JSON.parse(readFileSync(json, 'utf8')));
    // The stored figure is the rule's, from the files of 2 MB or more; both directions have some.
    for (const phase of ['write', 'read'] as const)
      assert.deepEqual(headline(document, phase), computeHeadline(document, phase));
    const rates = (['write', 'read'] as const).map((phase) => headline(document, phase).rate);
    assert.ok(
      rates.every((r) => r !== null && r > 0),
      `headline rates ${rates.join(', ')}`,
    );
    [write, read] = rates.map((r) => formatRate(r)) as [string, string];
    console.log(`# seed ${seed}: headline write ${write}, read ${read}`);
  });
  it('lies within the rates its files of 2 MB or more had (within 10 %)', () => {
    for (const phase of ['write', 'read'] as const) {
      const rates = document.files
        .filter((f) => f.phase === phase && f.bytes >= driveRateMinBytes && f.seconds > 0)
        .map((f) => f.bytes / f.seconds);
      const rate = headline(document, phase).rate!;
      const [slowest, fastest] = [Math.min(...rates), Math.max(...rates)];
      assert.ok(
        rate >= 0.9 * slowest && rate <= 1.1 * fastest,
        `${phase} headline ${formatRate(rate)} outside ${formatRate(slowest)} – ${formatRate(fastest)}`,
      );
    }
  });
  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the CLI summary and the results list show it, and that the run was quick', () => {
    assert.match(benchOut, new RegExp(`^Headline: write ${write} \\(.*\\), read ${read} \\(`, 'm'));
    assert.match(benchOut, /^Quick run at 1 % of the plan's sizes: /m);
    assert.match(benchOut, /^Plan: At 1 % of the full plan: 160 files of 20\.\d KB to 20\.0 MB/m);
    const list = runPlumb(['results', 'list'], { env });
    assert.equal(list.status, 0, list.stderr);
    const line = list.stdout.split('\n').find((l) => l.startsWith(document.id))!;
    assert.ok(line.includes(`write ${write}, read ${read}`), line);
    assert.ok(line.includes('(Quick run (1 %))'), line);
    // Too small to pass the drive's cache? Said when it wrote under 1.3 % of the volume.
    const written = document.files
      .filter((f) => f.phase === 'write')
      .reduce((sum, f) => sum + f.bytes, 0);
    const small = written < 0.013 * document.environment.volume.totalBytes;
    assert.equal(
      document.findings.some((f) => f.kind === 'within-cache' && f.phase === 'write'),
      small,
    );
    if (small) assert.match(benchOut, /within-cache: The run wrote .* may all have gone into/);
    const csv = runPlumb(['results', 'export', document.id, '--csv'], { env });
    const [first, second] = csv.stdout.split('\n');
    assert.match(first!, /^# Quick run at 1 % of the plan's sizes/);
    assert.match(second!, new RegExp(`^# Headline: write ${write} \\(.*\\), read ${read} \\(`));
  });

  it("the planner's measured option writes and reads at it", () => {
    const scenario = path.join(work, 'scenario.json');
    writeFileSync(
      scenario,
      JSON.stringify({
        name: 'The measured disk',
        host: { kind: 'apple-silicon', port: 'tb5' },
        data: { keepInternal: '250GB', movable: '400GB' },
        workload: { bursts: [{ name: 'Import', size: '100GB', target: 'movable' }] },
        options: [{ internalCapacity: '512GB', external: { device: `result:${document.id}` } }],
      }),
    );
    const plan = runPlumb(['plan', scenario, '--json'], { env });
    assert.equal(plan.status, 0, plan.stderr);
    const evaluation = JSON.parse(plan.stdout) as {
      options: { disks: (DiskResult & { device: { origin: string } })[] }[];
    };
    const disk = evaluation.options[0]!.disks.find((d) => d.device.origin === 'measured')!;
    // A cliff makes the planner model the cache with the finding's rates; otherwise the headline.
    const cliff = document.findings.find((f) => f.kind === 'cliff' && f.phase === 'write');
    assert.equal(
      disk.writeBytesPerSecond,
      cliff && cliff.kind === 'cliff' ? cliff.beforeRate : headline(document, 'write').rate,
    );
    assert.equal(disk.readBytesPerSecond, headline(document, 'read').rate);
  });

  it('the PDF shows it, labels the quick run and gives the sizes it used', () => {
    const out = path.join(work, 'run.pdf');
    const report = runPlumb(['report', document.id, '--pdf', out, '--browser', chromiumPath()!], {
      env,
    });
    assert.equal(report.status, 0, report.stderr);
    const text = pdfText(out);
    assert.ok(text.includes(`write ${write} (`), `PDF headline write ${write}`);
    assert.ok(text.includes(`read ${read} (`), `PDF headline read ${read}`);
    assert.ok(text.includes('Quick run (1 %)'), 'quick-run label');
    assert.match(text, /At 1 % of the full plan: 160 files of 20\.\d KB to 20\.0 MB/);
    assert.ok(!text.includes('2 MB to 2 GB'), "the full plan's sizes are not claimed");
  });

  describe('in the browser UI', () => {
    let server: Awaited<ReturnType<typeof startServe>>;
    let browser: Browser;
    const problems: string[] = [];
    let twin: string;
    before(async () => {
      // A second stored copy of the run, so the compare view has two to set side by side.
      twin = `${document.id.slice(0, -4)}beef`;
      writeFileSync(
        path.join(env.PLUMB_DATA_DIR!, 'results', `${twin}.json`),
        JSON.stringify({ ...document, id: twin, name: 'twin' }),
      );
      mkdirSync(artifacts, { recursive: true });
      server = await startServe([], { env: { ...env, PLUMB_BROWSER: chromiumPath() } });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await server?.stop();
    });
    const open = (hash: string) =>
      openAppPage(browser, server, { hash, problems, viewport: { width: 1280, height: 900 } });

    it('the results list shows it, with a quick-run label', async () => {
      const page = await open('#/results');
      const row = page.getByRole('row').filter({ hasText: 'twin' }).first();
      await row.waitFor();
      assert.equal((await row.getByTestId('list-write').textContent())?.trim(), write);
      assert.equal((await row.getByTestId('list-read').textContent())?.trim(), read);
      assert.equal(await row.getByTestId('quick-run').textContent(), 'Quick run (1 %)');
      await page.screenshot(picture('list'));
      await page.close();
    });

    it('the result page and the compare view show it, with a quick-run label', async () => {
      const page = await open(`#/results/${document.id}`);
      await page.getByTestId('quick-run').waitFor();
      const verdict = page.getByRole('article');
      const verdictText = (await verdict.textContent()) ?? '';
      assert.ok(verdictText.includes(write) && verdictText.includes(read), 'headline on the page');
      assert.equal(await page.getByTestId('headline-write').textContent(), write);
      assert.equal(await page.getByTestId('headline-read').textContent(), read);
      // Details: its headline row is the same figure, and no other row calls itself the headline.
      await page.getByText('Details: every statistic and every file').click();
      const row = page.getByTestId('summary-headline');
      const cells = row.locator('td');
      assert.equal(
        await cells.nth(0).textContent(),
        `${write}${headline(document, 'write').basis}`,
      );
      assert.equal(await cells.nth(1).textContent(), `${read}${headline(document, 'read').basis}`);
      const meanings = await page.locator('.summary-table .method-meaning').allTextContents();
      assert.deepEqual(
        meanings.filter((m) => /headline/i.test(m)).length,
        1,
        `one row is the headline: ${meanings.join(' | ')}`,
      );
      await page.screenshot(picture('result'));
      await page.close();

      const compare = await open(`#/results/compare/${document.id},${twin}`);
      const table = compare.locator('table.compare-table');
      await table.waitFor();
      const rows = table.locator('tbody tr');
      assert.equal(await rows.count(), 2);
      for (let k = 0; k < 2; k += 1) {
        const cells = rows.nth(k).locator('td.numeric');
        assert.ok((await cells.nth(0).textContent())?.startsWith(write));
        assert.ok((await cells.nth(1).textContent())?.startsWith(read));
        assert.equal(await rows.nth(k).getByTestId('quick-run').textContent(), 'Quick run (1 %)');
      }
      await compare.screenshot(picture('compare'));
      await compare.close();
      assert.deepEqual(problems, []);
    });
  });
});
