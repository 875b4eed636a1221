import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ResultDocument } from '../../app/contract/bench-result.js';
import { analyzeCsvText } from '../../app/core/bench/analyze.js';
import { seededRandom } from '../../app/core/bench/seeded-random.js';
import { appVersion } from '../../app/core/version.js';
import { runPlumb } from '../helpers/cli.js';
import { transferRows } from '../helpers/transfer-rows.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plumb-analyze-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** 40 files of 500 MB: 2.3 GB/s for the first 12 GB, 0.65 GB/s after (the X5 of seed 001). */
function cliffCsv(): string {
  const lines = ['bytes,seconds'];
  let written = 0;
  for (let i = 0; i < 40; i += 1) {
    const fast = Math.max(0, Math.min(500e6, 12e9 - written));
    const jitter = 1 + 0.03 * Math.sin(i * 1.7);
    lines.push(`500000000,${((fast / 2.3e9 + (500e6 - fast) / 0.65e9) * jitter).toFixed(6)}`);
    written += 500e6;
  }
  return `${lines.join('\n')}\n`;
}

describe('plumb analyze', () => {
  it('prints the summary and finds the cliff in a CSV from another tool', async () => {
    const file = path.join(dir, 'x5.csv');
    await writeFile(file, cliffCsv());
    const result = runPlumb(['analyze', file]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /Median/);
    assert.match(result.stdout, /Theil–Sen/);
    assert.match(
      result.stdout,
      /cliff: Write speed fell from 2\.\d+ GB\/s to 6\d\d MB\/s after 12\.0 GB/,
    );
    assert.match(result.stdout, /bimodal/);
  });

  it('--json gives a valid results document', async () => {
    const file = path.join(dir, 'x5.csv');
    await writeFile(file, cliffCsv());
    const result = runPlumb(['analyze', file, '--json']);
    assert.equal(result.status, 0, result.stderr);
    const document = ResultDocument.parse(JSON.parse(result.stdout));
    assert.equal(document.files.length, 40);
    const cliff = document.findings.find((f) => f.kind === 'cliff');
    assert.ok(cliff && cliff.kind === 'cliff' && Math.abs(cliff.atBytes - 12e9) < 0.05 * 12e9);
  });

  it('--json streams exactly the document made whole, files and size curve in pieces', async () => {
    // Rows of many sizes: their files and their rate-vs-size curve are each many pieces.
    const csv = transferRows(3000, 'varied', seededRandom(24));
    const file = path.join(dir, 'rows.csv');
    await writeFile(file, csv);
    const result = runPlumb(['analyze', file, '--json']);
    assert.equal(result.status, 0, result.stderr);
    const whole = analyzeCsvText(csv, { appVersion: appVersion(), source: 'rows.csv' });
    const at = (text: string) => text.replace(/"startedAt": "[^"]*"/, '"startedAt": "…"');
    assert.ok(whole.summary.write.bySize.length > 1000);
    assert.equal(at(result.stdout), at(`${JSON.stringify(whole, null, 2)}\n`));
  });

  it('re-analyses a results JSON, and checks against a chosen interface', async () => {
    const csv = path.join(dir, 'sata.csv');
    await writeFile(csv, 'bytes,seconds\n100000000,0.1\n100000000,0.1\n100000000,0.1\n');
    const json = path.join(dir, 'sata.json');
    await writeFile(json, runPlumb(['analyze', csv, '--json']).stdout);
    const result = runPlumb(['analyze', json, '--interface', 'sata']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /exceeds-interface: 3 files written went faster than SATA III/);
  });

  it('exits 1 with one line for bad data and 2 for bad usage', async () => {
    const bad = path.join(dir, 'bad.csv');
    await writeFile(bad, 'bytes,seconds\n10,x\n');
    const failed = runPlumb(['analyze', bad]);
    assert.equal(failed.status, 1);
    assert.match(failed.stderr, /^plumb analyze: Line 2 of the CSV/);
    assert.equal(failed.stderr.trim().split('\n').length, 1);
    assert.equal(runPlumb(['analyze']).status, 2);
    assert.equal(runPlumb(['analyze', bad, '--interface', 'floppy']).status, 2);
    assert.equal(runPlumb(['analyze', path.join(dir, 'missing.csv')]).status, 1);
  });
});

describe('plumb results', () => {
  it('lists, shows, exports, renames and deletes stored results', async () => {
    const dataDir = path.join(dir, 'data');
    const env = { PLUMB_DATA_DIR: dataDir };
    assert.match(runPlumb(['results', 'list'], { env }).stdout, /No results/);
    const csv = path.join(dir, 'r.csv');
    await writeFile(csv, 'bytes,seconds\n1000000,0.01\n2000000,0.02\n');
    const document = JSON.parse(runPlumb(['analyze', csv, '--json']).stdout) as ResultDocument;
    await mkdir(path.join(dataDir, 'results'), { recursive: true });
    await writeFile(path.join(dataDir, 'results', `${document.id}.json`), JSON.stringify(document));

    const list = runPlumb(['results', 'list'], { env });
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`^${document.id} .*imported-csv.*write 100 MB/s`));
    const listed = JSON.parse(runPlumb(['results', 'list', '--json'], { env }).stdout) as {
      id: string;
    }[];
    assert.deepEqual(
      listed.map((i) => i.id),
      [document.id],
    );

    const show = runPlumb(['results', 'show', document.id.slice(0, 8)], { env });
    assert.equal(show.status, 0, show.stderr);
    assert.match(show.stdout, new RegExp(`Run ${document.id}`));

    const exported = runPlumb(['results', 'export', document.id, '--csv'], { env });
    assert.equal(
      exported.stdout,
      '# Headline: write 100 MB/s (1 file of 2 MB or more)\nphase,bytes,seconds,cumulativeBytes,t,temperatureC\nwrite,1000000,0.01,1000000,0.01,\nwrite,2000000,0.02,3000000,0.03,\n',
    );
    assert.equal(runPlumb(['results', 'export', document.id], { env }).status, 2);

    assert.equal(runPlumb(['results', 'rename', document.id, 'old', 'disk'], { env }).status, 0);
    assert.match(runPlumb(['results', 'list'], { env }).stdout, /"old disk"/);
    assert.equal(runPlumb(['results', 'delete', document.id], { env }).status, 0);
    assert.match(runPlumb(['results', 'list'], { env }).stdout, /No results/);
    const missing = runPlumb(['results', 'show', 'nope'], { env });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /No result "nope"/);
    assert.equal(runPlumb(['results', 'frobnicate'], { env }).status, 2);
  });
});
