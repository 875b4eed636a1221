/**
 * A sustained result's CSV export (issue 25) holds every rate sample its chart draws: after the
 * per-file rows, a `# Rate samples` comment and a table phase,cumulativeBytes,seconds,MBps with one
 * row per point of the rate curve the chart draws from the saved samples. It held the per-file
 * rows only (two of them on a full run), none of the curve the chart shows.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { ResultDocument } from '../../app/contract/bench-result.js';
import { storedRateCurve } from '../../app/common/sample-rates.js';
import { runPlumb } from '../helpers/cli.js';

const work = mkdtempSync(path.join(tmpdir(), 'plumb-sustained-csv-'));
const env = { PLUMB_DATA_DIR: path.join(work, 'data'), PLUMB_STATE_DIR: path.join(work, 'state') };
after(() => rmSync(work, { recursive: true, force: true }));

test('a quick sustained run exported as CSV: the files, then every rate sample the chart draws', () => {
  const disk = path.join(work, 'disk');
  mkdirSync(disk);
  const run = runPlumb(['bench', disk, '--plan', 'sustained', '--scale', '0.01', '--json', '-'], {
    env,
  });
  assert.equal(run.status, 0, run.stderr);
  const document = JSON.parse(run.stdout) as ResultDocument;
  const samples = document.samplesByPhase?.write;
  assert.ok(samples && samples.t.length > 10, 'the run kept its progress samples');
  const curve = storedRateCurve(samples);
  assert.ok(curve, 'the chart draws a curve from the samples');

  const exported = runPlumb(['results', 'export', document.id, '--csv'], { env });
  assert.equal(exported.status, 0, exported.stderr);
  const lines = exported.stdout.trimEnd().split('\n');
  const fileHeader = lines.indexOf('phase,bytes,seconds,cumulativeBytes,t,temperatureC');
  const sampleHeader = lines.indexOf('phase,cumulativeBytes,seconds,MBps');
  assert.ok(fileHeader >= 0 && sampleHeader > fileHeader, lines.slice(0, 5).join('\n'));
  // The summary rows first: one per file, as before.
  assert.equal(
    sampleHeader - fileHeader - 1 - 2,
    document.files.length,
    'a blank line and a comment between',
  );
  assert.equal(lines[sampleHeader - 2], '');
  assert.match(lines[sampleHeader - 1]!, /^# Rate samples: /);

  const rows = lines.slice(sampleHeader + 1).map((line) => line.split(','));
  assert.equal(rows.length, curve.rate.length, 'one row per point of the chart');
  // Each interval inside a file is a point: nearly as many rows as samples, not one per file.
  assert.ok(rows.length >= samples.t.length - 2 * document.files.length, `${rows.length} rows`);
  const written = document.files.reduce((sum, f) => sum + f.bytes, 0);
  let lastBytes = 0;
  for (const [index, cells] of rows.entries()) {
    assert.equal(cells.length, 4);
    assert.equal(cells[0], 'write');
    const bytes = Number(cells[1]);
    assert.ok(bytes >= lastBytes && bytes <= written, `row ${index}: ${cells.join(',')}`);
    lastBytes = bytes;
    assert.equal(bytes, Math.round(curve.endBytes[index]!));
    assert.ok(Math.abs(Number(cells[3]) - curve.rate[index]! / 1e6) < 0.001, cells.join(','));
    assert.ok(Number(cells[2]) >= 0 && Number(cells[3]) > 0);
  }
  assert.ok(lastBytes > written * 0.9, 'the samples reach the end of the run');
});
