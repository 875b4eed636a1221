import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseScenario } from '../../../app/core/planner/scenario-file.js';
import { analyzeCsvText } from '../../../app/core/bench/analyze.js';
import { builtInCatalogue } from '../../../app/core/planner/catalogue.js';
import { evaluateScenario } from '../../../app/core/planner/evaluate.js';
import {
  comparisonReport,
  deviceName,
  plannerReport,
  reportFileName,
  resultReport,
} from '../../../app/core/report/model.js';
import { paperForLocale } from '../../../renderer/src/report/paper.js';

const common = { paper: 'a4' as const, appVersion: '9.9.9', now: new Date('2026-11-22T10:00:00Z') };

function document(path: string, name?: string) {
  // Lines in the format any tool can give: bytes,seconds (analysed by the bench engine).
  const analysed = analyzeCsvText('bytes,seconds\n1000000,0.01\n2000000,0.02\n4000000,0.04\n', {
    phase: 'write',
    appVersion: 'test',
  });
  return {
    ...analysed,
    ...(name ? { name } : {}),
    environment: {
      ...analysed.environment,
      volume: { ...analysed.environment.volume, path, fsType: 'apfs', bus: 'usb' },
    },
  };
}

describe('report models', () => {
  it('names the device by the user label and the volume', () => {
    assert.equal(deviceName(document('/Volumes/T7')), '/Volumes/T7 (apfs, USB)');
    assert.equal(
      deviceName(document('/Volumes/T7', 'Samsung T7')),
      'Samsung T7 — /Volumes/T7 (apfs, USB)',
    );
  });

  it('titles each kind and stamps the date and version', () => {
    const one = resultReport(document('/Volumes/T7'), common);
    assert.equal(one.title, 'Storage benchmark: /Volumes/T7 (apfs, USB)');
    assert.equal(one.generatedAt, '2026-11-22T10:00:00.000Z');
    assert.equal(one.appVersion, '9.9.9');
    const many = comparisonReport(
      ['/a', '/b', '/c', '/d'].map((p) => document(p)),
      common,
    );
    assert.equal(many.title, 'Comparison of 4 benchmark results');
    assert.equal(many.subject, '/a (apfs, USB) vs /b (apfs, USB) and 2 more');
  });

  it('gives file names every file system accepts', () => {
    const one = resultReport(document('/x'), common);
    assert.equal(reportFileName(one), `plumb-${one.kind === 'result' ? one.result.id : ''}.pdf`);
    const scenario = parseScenario({
      name: 'Büro: 2 TB / extern?',
      host: { kind: 'apple-silicon', port: 'tb5' },
      data: { keepInternal: '200GB', movable: '500GB' },
      workload: {},
      options: [{ internalCapacity: '1TB' }],
    });
    const plan = plannerReport(
      scenario,
      evaluateScenario(scenario, builtInCatalogue(), []),
      common,
    );
    assert.equal(reportFileName(plan), 'plumb-plan-Buro-2-TB-extern.pdf');
    assert.equal(
      reportFileName(comparisonReport([document('/a'), document('/b')], common), 'csv'),
      'plumb-comparison-2026-11-22.csv',
    );
  });

  it('picks Letter paper where it is used and A4 elsewhere', () => {
    assert.equal(paperForLocale('en-US'), 'letter');
    assert.equal(paperForLocale('es_MX'), 'letter');
    assert.equal(paperForLocale('en-GB'), 'a4');
    assert.equal(paperForLocale('de'), 'a4');
    assert.equal(paperForLocale(undefined), 'a4');
  });
});
