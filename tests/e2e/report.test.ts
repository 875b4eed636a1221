/**
 * `plumb report` end to end: reports printed to PDF by the system Chromium, read back as text and
 * as pictures. Results come from a tiny real benchmark and from the bench engine run against the
 * pretend drive of the unit tests (for a cache cliff a real disk here cannot show quickly).
 * Page pictures are saved to test-artifacts/report-*.png for people to look at.
 */
import assert from 'node:assert/strict';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Finding, ResultDocument } from '../../app/contract/bench-result.js';
import { planSchemaVersion } from '../../app/contract/plan.js';
import { interfaceCeilingById } from '../../app/core/analysis/interface-ceiling.js';
import { ResultsStore } from '../../app/core/bench/results-store.js';
import { runBenchmark } from '../../app/core/bench/runner.js';
import { seriesPalette } from '../../renderer/src/ui/result/compare.js';
import { findingCards } from '../../renderer/src/ui/result/findings-text.js';
import { formatRate } from '../../app/common/format.js';
import { headlineRates, headlineWords } from '../../app/common/headline-rate.js';
import { chromiumMissingReason, chromiumPath } from '../helpers/chromium.js';
import { repoRoot, runPlumb } from '../helpers/cli.js';
import { FakeDrive } from '../helpers/fake-bench-io.js';
import {
  countColour,
  embeddedImages,
  inkShare,
  pdfPageCount,
  pdfPageSize,
  pdfPageText,
  pdfText,
  popplerMissingReason,
  renderPage,
  savePagePngs,
} from '../helpers/pdf.js';

const skip = chromiumMissingReason() ?? popplerMissingReason();
const artifacts = path.join(repoRoot, 'test-artifacts');
// The light chart theme of the app (chart-theme.ts) and the planner's first two option colours.
const colours = {
  write: '#0a64d8',
  read: '#0f8a5f',
  ceiling: '#c2410c',
  cliff: '#a16207',
  option0: '#0a64d8',
  option1: '#d9480f',
};

let work: string;
let env: NodeJS.ProcessEnv;
let measured: ResultDocument;
let measuredFile: string;
let cliffResult: ResultDocument;

function sentences(findings: readonly Finding[]): string[] {
  // As the page prints them: one card for a kind found in both directions.
  return findingCards(findings).map((card) => card.sentence.replace(/\s+/g, ' '));
}

/** Every page has ink beyond its header and footer (the PDF and its pages are kept to look at). */
function assertPagesDrawn(file: string, stem: string): void {
  copyFileSync(file, path.join(artifacts, `${stem}.pdf`));
  savePagePngs(file, artifacts, stem);
  for (let page = 1; page <= pdfPageCount(file); page += 1) {
    const share = inkShare(renderPage(file, page));
    assert.ok(share > 0.01, `page ${page} of ${stem} is blank (${(share * 100).toFixed(2)} % ink)`);
  }
}

function printReport(args: string[], out: string): string {
  const run = runPlumb(['report', ...args, '--pdf', out, '--browser', chromiumPath()!], { env });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^Wrote .*\.pdf \(/);
  assert.ok(readFileSync(out).subarray(0, 5).equals(Buffer.from('%PDF-')));
  return pdfText(out);
}

describe('plumb report', { skip }, () => {
  before(async () => {
    mkdirSync(artifacts, { recursive: true });
    work = await mkdtemp(path.join(os.tmpdir(), 'plumb-report-'));
    env = { PLUMB_DATA_DIR: path.join(work, 'data') };
    const target = path.join(work, 'target');
    mkdirSync(target);
    // A real run, small; USB 3.2 Gen 1's ceiling is low enough for this disk to go past it.
    measuredFile = path.join(work, 'measured.json');
    const bench = runPlumb(
      [
        ...['bench', target, '--plan', 'standard', '--scale', '0.001'],
        ...['--interface', 'usb3-gen1', '--seed', '7', '--json', measuredFile],
      ],
      { env },
    );
    assert.equal(bench.status, 0, bench.stderr);
    measured = JSON.parse(readFileSync(measuredFile, 'utf8')) as ResultDocument;

    // The engine against the pretend drive: a 2 GB write cache, then a quarter of the speed.
    cliffResult = await runBenchmark(
      {
        target,
        plan: {
          schema: planSchemaVersion,
          name: 'sustained',
          kind: 'sustained',
          minFileBytes: 20e6,
          maxFileBytes: 200e6,
          totalBytes: 6e9,
          timeLimitSeconds: null,
          recovery: { idleSeconds: 5, probeBytes: 100e6, maxProbes: 10 },
        },
        seed: 3,
        ceiling: interfaceCeilingById('usb3-gen2'),
        appVersion: 'test',
        signal: new AbortController().signal,
        store: new ResultsStore(path.join(env.PLUMB_DATA_DIR!, 'results')),
        reserve: { fraction: 0.1, minBytes: 0 },
      },
      new FakeDrive({ fastRate: 2e9, slowRate: 0.5e9, cacheBytes: 2e9, drainRate: 0.1e9 }),
    );
    assert.ok(cliffResult.findings.some((f) => f.kind === 'cliff'));
    assert.ok(cliffResult.findings.some((f) => f.kind === 'exceeds-interface'));
  });
  after(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('prints a measured result: device, headline rates, every finding, drawn charts', () => {
    const out = path.join(work, 'measured.pdf');
    const text = printReport([measuredFile], out);
    const volume = measured.environment.volume;
    assert.ok(text.includes(volume.path), 'the device and volume');
    assert.ok(text.includes(measured.environment.os), 'the OS');
    for (const rate of [measured.summary.write.median, measured.summary.read.median])
      assert.ok(text.includes(formatRate(rate)), `headline rate ${formatRate(rate)}`);
    for (const sentence of sentences(measured.findings))
      assert.ok(text.includes(sentence), `finding: ${sentence}`);
    assert.ok(text.includes('Quick run (0.1 %)'), 'the run at --scale 0.001 is labelled quick');
    assert.match(text, /Page 1 of \d+/, 'page numbers');
    assert.match(text, /every file/i, 'the per-file appendix');
    assert.deepEqual(pdfPageSize(out), { width: 595.92, height: 842.88 }, 'A4');
    assertPagesDrawn(out, 'report-result');
    // The appendix's column names head every page it runs onto, through the last.
    const pages = pdfPageCount(out);
    const first = [...Array(pages).keys()]
      .map((i) => i + 1)
      .find((page) => /EVERY FILE/i.test(pdfPageText(out, page)));
    assert.ok(first !== undefined && first < pages, 'the appendix runs onto more than one page');
    for (let page = first; page <= pages; page += 1)
      assert.match(
        pdfPageText(out, page),
        /#\s+Phase\s+Size\s+Time\s+Rate\s+Data so far\s+At/,
        `page ${page} repeats the appendix's header`,
      );

    const charts = embeddedImages(out);
    assert.equal(charts.length, 2, 'both charts');
    for (const chart of charts) {
      assert.ok(countColour(chart, colours.write) > 200, 'write points drawn');
      assert.ok(countColour(chart, colours.read) > 200, 'read points drawn');
      // measured.json exceeds USB 3.2 Gen 1, so both charts draw its ceiling.
      assert.ok(countColour(chart, colours.ceiling) > 300, 'interface ceiling marked');
    }
  });

  it('marks the cache cliff and the interface ceiling of a stored result, by id', () => {
    const out = path.join(work, 'cliff.pdf');
    const text = printReport([cliffResult.id.slice(0, 17)], out);
    for (const sentence of sentences(cliffResult.findings))
      assert.ok(text.includes(sentence), `finding: ${sentence}`);
    assert.ok(text.includes(formatRate(cliffResult.summary.write.median)));
    assertPagesDrawn(out, 'report-cliff');
    const [cumulative, bySize] = embeddedImages(out);
    assert.ok(cumulative && bySize);
    assert.ok(countColour(cumulative, colours.write) > 200);
    assert.ok(countColour(cumulative, colours.cliff) > 300, 'cliff line on the cumulative chart');
    assert.ok(countColour(cumulative, colours.ceiling) > 300, 'ceiling on the cumulative chart');
    assert.ok(countColour(bySize, colours.ceiling) > 300, 'ceiling on the size chart');
  });

  it('prints a comparison of results, with every finding of each', () => {
    const out = path.join(work, 'comparison.pdf');
    const text = printReport([measuredFile, cliffResult.id], out);
    assert.ok(text.includes('Comparison of 2 benchmark results'));
    assert.ok(text.includes(measured.environment.volume.path));
    for (const document of [measured, cliffResult]) {
      // Each run's headline (all bytes over all seconds of its files of 2 MB or more).
      assert.ok(text.includes(formatRate(headlineRates(document).write)));
      for (const sentence of sentences(document.findings))
        assert.ok(text.includes(sentence), `finding: ${sentence}`);
    }
    assertPagesDrawn(out, 'report-comparison');
    const charts = embeddedImages(out);
    assert.equal(charts.length, 2);
    for (const chart of charts) {
      assert.ok(countColour(chart, seriesPalette[0]!) > 200, 'first result drawn');
      assert.ok(countColour(chart, seriesPalette[1]!) > 200, 'second result drawn');
    }
  });

  it('prints a planner scenario on Letter paper: options, chart, recommendation', () => {
    const scenarioFile = path.join(repoRoot, 'examples', 'scenarios', 'tb5-vs-usb4-100gb.json');
    const plan = runPlumb(['plan', scenarioFile, '--json'], { env });
    assert.equal(plan.status, 0, plan.stderr);
    const evaluation = JSON.parse(plan.stdout) as {
      options: { name: string }[];
      recommendation: { headline: string; reasons: string[] };
    };
    const out = path.join(work, 'plan.pdf');
    const text = printReport([scenarioFile, '--paper', 'letter'], out);
    assert.ok(text.includes(evaluation.recommendation.headline.replace(/\s+/g, ' ')));
    for (const reason of evaluation.recommendation.reasons)
      assert.ok(text.includes(reason.replace(/\s+/g, ' ')), `reason: ${reason}`);
    for (const option of evaluation.options) assert.ok(text.includes(option.name), option.name);
    assert.deepEqual(pdfPageSize(out), { width: 612, height: 792 }, 'Letter');
    assertPagesDrawn(out, 'report-plan');
    const [chart] = embeddedImages(out);
    assert.ok(chart, 'the crossover chart');
    assert.ok(countColour(chart, colours.option0) > 200, 'first option drawn');
    assert.ok(countColour(chart, colours.option1) > 200, 'second option drawn');
  });

  it('writes the CSV of the files and the JSON of the whole result', () => {
    const csv = path.join(work, 'files.csv');
    const json = path.join(work, 'whole.json');
    const run = runPlumb(['report', measuredFile, '--csv', csv, '--json', json], { env });
    assert.equal(run.status, 0, run.stderr);
    // The file table, then (after a blank line) the rate samples the chart draws.
    const [files, samples] = readFileSync(csv, 'utf8').trim().split('\n\n');
    const lines = files!.split('\n');
    if (measured.samplesByPhase) {
      assert.match(
        samples ?? '',
        /^# Rate samples.*\nphase,cumulativeBytes,seconds,MBps\n(write|read),/,
      );
    }
    // A quick run (--scale 0.001) says so on a comment line before the header, then its headline
    // (when a file reached 2 MB).
    assert.match(lines[0]!, /^# Quick run at 0\.1 % of the plan's sizes/);
    const headline = headlineWords(measured);
    if (headline) assert.equal(lines[1], `# Headline: ${headline}`);
    const header = headline ? 2 : 1;
    assert.equal(lines[header], 'phase,bytes,seconds,cumulativeBytes,t,temperatureC');
    assert.equal(lines.length, measured.files.length + header + 1);
    assert.deepEqual(JSON.parse(readFileSync(json, 'utf8')), measured);
  });

  it('says what to install when there is no browser, and leaves nothing behind', () => {
    const out = path.join(work, 'none.pdf');
    writeFileSync(out, 'the previous report');
    const run = runPlumb(['report', measuredFile, '--pdf', out, '--browser', '/nowhere/chrome'], {
      env,
    });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^plumb report: No browser at \/nowhere\/chrome: .*\n$/);
    assert.equal(readFileSync(out, 'utf8'), 'the previous report', 'the old file is untouched');
    assert.deepEqual(
      readdirSync(work).filter((name) => name.includes('none.pdf')),
      ['none.pdf'],
      'no temporary file left',
    );
  });

  it('fails cleanly when the page cannot be drawn: no PDF, no partial file', () => {
    // A build without the report page, and one whose report page lost its script.
    const noPage = path.join(work, 'renderer-without-report');
    const noScript = path.join(work, 'renderer-without-script');
    for (const dir of [noPage, noScript]) mkdirSync(dir);
    writeFileSync(path.join(noPage, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(path.join(noScript, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(
      path.join(noScript, 'report.html'),
      '<!doctype html><body><script type="module" src="./assets/report-gone.js"></script></body>',
    );
    for (const [build, reason] of [
      [noPage, /The report page is missing from the renderer build/],
      [noScript, /needs \/assets\/report-gone\.js, which is not in the renderer build/],
    ] as const) {
      const out = path.join(work, 'broken.pdf');
      const started = Date.now();
      const run = runPlumb(['report', measuredFile, '--pdf', out, '--browser', chromiumPath()!], {
        env: { ...env, PLUMB_RENDERER_DIR: build },
      });
      assert.equal(run.status, 1);
      assert.match(run.stderr, reason);
      assert.ok(Date.now() - started < 30_000, 'fails at once, not at the drawing timeout');
      assert.equal(existsSync(out), false);
      assert.deepEqual(
        readdirSync(work).filter((name) => name.includes('broken.pdf')),
        [],
      );
    }
  });

  it('refuses unclear command lines with exit 2', () => {
    for (const args of [
      [measuredFile],
      [measuredFile, '--pdf', 'x.pdf', '--paper', 'a3'],
      [measuredFile, cliffResult.id, '--csv', 'x.csv'],
      ['--pdf', 'x.pdf'],
    ]) {
      const run = runPlumb(['report', ...args], { env });
      assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, /^plumb report: .+\n$/);
    }
  });
});
