import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  contentWidthPx,
  footerTemplate,
  headerTemplate,
  modelTokenOf,
  reportModelPath,
} from '../../../app/core/report/page-setup.js';

describe('page setup', () => {
  it('lays the page out at the printable width of the paper', () => {
    // A4 is 210 mm wide, Letter 8.5 in; 14 mm margins each side; 96 CSS px to the inch.
    assert.equal(contentWidthPx('a4'), Math.floor(((210 - 28) / 25.4) * 96));
    assert.equal(contentWidthPx('letter'), Math.floor(((215.9 - 28) / 25.4) * 96));
  });

  it('puts the subject in the header, escaped, and page numbers in the footer', () => {
    const header = headerTemplate({ kind: 'result', subject: 'Disk <"T7"> & co' });
    assert.ok(header.includes('Disk &lt;&quot;T7&quot;&gt; &amp; co'));
    assert.ok(header.includes('Plumb · Benchmark report'));
    // Every style attribute is closed by its own quote: no double quote inside one.
    for (const style of header.match(/style="[^"]*"/g) ?? []) assert.match(style, /;"$/);
    const footer = footerTemplate({ generatedAt: '2026-11-22T01:02:03Z', appVersion: '1.2.3' });
    assert.match(footer, /Plumb 1\.2\.3 on 2026-11-22/);
    assert.match(footer, /<span class="pageNumber"><\/span> of <span class="totalPages"><\/span>/);
  });

  it('names models by token and recognises only such paths', () => {
    assert.equal(modelTokenOf(reportModelPath('abcDEF12_-x')), 'abcDEF12_-x');
    assert.equal(modelTokenOf('/report-models/short.json'), null);
    assert.equal(modelTokenOf('/report-models/../../etc/passwd.json'), null);
    assert.equal(modelTokenOf('/index.html'), null);
  });
});
