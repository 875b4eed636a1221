/**
 * A queue-depth grid's exports (issue 25). Its CSV holds the grid: one row per run with every figure
 * the grid shows, after a line naming the test file's size, each run's length and the number of
 * runs (it was a header with no rows: a grid writes no files). Its PDF report holds the grid's
 * figures without the screen's controls (the MB/s ⇄ IOPS switch and the Copy buttons were printed).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { chromiumPath } from '../helpers/chromium.js';
import { runPlumb } from '../helpers/cli.js';
import { pdfText, popplerMissingReason } from '../helpers/pdf.js';

const work = mkdtempSync(path.join(tmpdir(), 'plumb-grid-csv-'));
const env = { PLUMB_DATA_DIR: path.join(work, 'data'), PLUMB_STATE_DIR: path.join(work, 'state') };
after(() => rmSync(work, { recursive: true, force: true }));

test('the grid exported as CSV: every run, its figures, the test size and count', () => {
  const disk = path.join(work, 'disk');
  mkdirSync(disk);
  const run = runPlumb(['bench', disk, '--plan', 'presets', '--scale', '0.01', '--json', '-'], {
    env,
  });
  assert.equal(run.status, 0, run.stderr);
  const document = JSON.parse(run.stdout) as {
    id: string;
    plan: { fileBytes: number; durationSeconds: number };
    runs: { name: string; bytesPerSecond: number; iops: number; latency: { p50: number } }[];
  };
  const exported = runPlumb(['results', 'export', document.id, '--csv'], { env });
  assert.equal(exported.status, 0, exported.stderr);
  const lines = exported.stdout.trim().split('\n');
  const comments = lines.filter((line) => line.startsWith('#'));
  const table = lines.filter((line) => !line.startsWith('#'));
  assert.ok(
    comments.includes(
      `# Queue-depth grid: test file ${document.plan.fileBytes} bytes, each run ${document.plan.durationSeconds} s, ${document.runs.length} runs`,
    ),
    comments.join('\n'),
  );
  assert.equal(
    table[0],
    'name,op,blockSize,queueDepth,threads,bytesPerSecond,iops,latencyP50Seconds,latencyP99Seconds,latencyP999Seconds',
  );
  assert.equal(table.length - 1, document.runs.length);
  assert.equal(document.runs.length, 8, 'the grid: four tests, read and write');
  for (const [index, gridRun] of document.runs.entries()) {
    const cells = table[index + 1]!.split(',');
    assert.equal(cells[0], gridRun.name);
    assert.equal(Number(cells[5]), gridRun.bytesPerSecond);
    assert.equal(Number(cells[6]), gridRun.iops);
    assert.equal(Number(cells[7]), gridRun.latency.p50);
  }
});

const noPdf = (chromiumPath() ? undefined : 'no Chromium here') ?? popplerMissingReason();
if (noPdf) console.log(`# skipping the grid PDF test: ${noPdf}`);

test('the grid printed as a PDF report: its figures, none of its controls', { skip: noPdf }, () => {
  const disk = path.join(work, 'disk-pdf');
  mkdirSync(disk);
  const run = runPlumb(['bench', disk, '--plan', 'presets', '--scale', '0.01', '--json', '-'], {
    env,
  });
  assert.equal(run.status, 0, run.stderr);
  const { id } = JSON.parse(run.stdout) as { id: string };
  const out = path.join(work, 'grid.pdf');
  const printed = runPlumb(['report', id, '--pdf', out, '--browser', chromiumPath()!], { env });
  assert.equal(printed.status, 0, printed.stderr);
  const text = pdfText(out);
  assert.match(text, /SEQ1M Q8T1/);
  assert.match(text, /RND4K Q1T1/);
  for (const control of ['Copy as text', 'Copy as image', 'Show figures in']) {
    assert.ok(!text.includes(control), `the PDF prints "${control}"`);
  }
});
