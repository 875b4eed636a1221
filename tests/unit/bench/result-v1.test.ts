/**
 * Results saved by earlier versions (plumb.result/1, no samples, no top-level scale) still open,
 * read, analyse, export and compare. The fixture was written by main's buildResult before version 2:
 * a quarter-scale sustained run whose per-file rates fall from 700 to 150 MB/s after 6 GB.
 */
import assert from 'node:assert/strict';
import { formatRate } from '../../../app/common/format.js';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ResultDocument, resultSchemaVersion } from '../../../app/contract/bench-result.js';
import { ReportModel } from '../../../app/contract/report.js';
import { analyzeFile, reanalyzeDocument } from '../../../app/core/bench/analyze.js';
import { resultCsv, ResultsStore } from '../../../app/core/bench/results-store.js';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/result-v1.json');

describe('version 1 results', () => {
  let dir: string;
  let raw: { schema: string; files: unknown[] };
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'plumb-result-v1-'));
    raw = JSON.parse(await readFile(fixture, 'utf8'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('parse into the current shape: version 2, scale from the plan, no samples', () => {
    assert.equal(raw.schema, 'plumb.result/1');
    const document = ResultDocument.parse(raw);
    assert.equal(document.schema, resultSchemaVersion);
    assert.equal(document.scale, 0.25);
    assert.equal(document.samplesByPhase, undefined);
    assert.equal(document.files.length, raw.files.length);
  });

  it('open from the results store, list, export as CSV, and save back as version 2', async () => {
    const store = new ResultsStore(path.join(dir, 'results'));
    await mkdir(store.dir, { recursive: true });
    await copyFile(fixture, path.join(store.dir, '20251101-120000-c0de.json'));
    const listed = await store.list();
    assert.deepEqual(
      listed.map((item) => item.id),
      ['20251101-120000-c0de'],
    );
    const document = await store.get('20251101');
    const csv = resultCsv(document).trim().split('\n');
    // The run was at scale 0.25: a quick run, said on a comment line before the header, then
    // its headline, as the list gives it.
    assert.match(csv[0]!, /^# Quick run at 25 % of the plan's sizes/);
    assert.match(
      csv[1]!,
      new RegExp(`^# Headline: write ${formatRate(listed[0]!.writeMedian)} \\(`),
    );
    assert.equal(listed[0]!.scale, 0.25);
    assert.equal(csv.length, 2 + 1 + raw.files.length);
    await store.rename('20251101', 'old run');
    const saved = JSON.parse(
      await readFile(path.join(store.dir, '20251101-120000-c0de.json'), 'utf8'),
    );
    assert.equal(saved.schema, resultSchemaVersion);
    assert.equal(saved.scale, 0.25);
  });

  it('re-analyse on the per-file rates: the cliff after 6 GB', async () => {
    const document = await analyzeFile(fixture, { appVersion: 'test' });
    const cliff = document.findings.find((f) => f.kind === 'cliff');
    assert.ok(cliff && cliff.kind === 'cliff', JSON.stringify(document.findings));
    assert.ok(Math.abs(cliff.atBytes - 6e9) < 0.05 * 6e9, `cliff at ${cliff.atBytes}`);
    assert.ok(Math.abs(cliff.beforeRate - 700e6) < 0.1 * 700e6);
    assert.ok(Math.abs(cliff.afterRate - 150e6) < 0.1 * 150e6);
    assert.equal(cliff.steps, undefined, 'no samples, so no steps');
    assert.deepEqual(reanalyzeDocument(document).findings, document.findings);
  });

  it('compare beside a version 2 result', () => {
    const old = ResultDocument.parse(raw);
    const current = { ...old, id: '20251102-120000-beef', samplesByPhase: undefined };
    const model = ReportModel.safeParse({
      kind: 'comparison',
      title: 'Compare',
      subject: 'two runs',
      paper: 'a4',
      generatedAt: '2025-11-03T00:00:00Z',
      appVersion: '0.1.0',
      results: [raw, current],
    });
    assert.ok(model.success, JSON.stringify(model.error?.issues));
    assert.ok(model.data.kind === 'comparison');
    assert.deepEqual(
      model.data.results.map((r) => [r.schema, r.scale]),
      [
        [resultSchemaVersion, 0.25],
        [resultSchemaVersion, 0.25],
      ],
    );
  });
});
