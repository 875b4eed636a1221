import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTransfersCsv } from '../../../app/core/analysis/transfers-csv.js';

describe('parseTransfersCsv: numbers as tools print them', () => {
  it('takes decimal numbers, with signs, points and exponents, and spaces around them', () => {
    assert.deepEqual(parseTransfersCsv('1e3, .5\n 2048 ,+0.25,4096\n12.,1E-3\n'), [
      { bytes: 1000, seconds: 0.5, cumulativeBytes: 1000 },
      { bytes: 2048, seconds: 0.25, cumulativeBytes: 4096 },
      { bytes: 12, seconds: 0.001, cumulativeBytes: 1000 + 2048 + 12 },
    ]);
  });
  it('refuses what Number() would take but is no decimal number, naming the line', () => {
    for (const cell of [
      '0x10',
      '0b11',
      '0o17',
      'Infinity',
      '',
      ' ',
      '1_000',
      '1e',
      '--1',
      '1,5e',
    ]) {
      assert.throws(
        () => parseTransfersCsv(`bytes,seconds\n100,1\n${cell},1\n`),
        /^PlumbError: Line 3 of the CSV is not "bytes,seconds\[,cumulativeBytes\]" with positive decimal numbers/,
        JSON.stringify(cell),
      );
    }
    assert.throws(() => parseTransfersCsv('100,0x1\n'), /Line 1/);
    assert.throws(() => parseTransfersCsv('100,1,0x100\n'), /Line 1/);
    assert.throws(
      () => parseTransfersCsv('100,1e999\n'),
      /Line 1/,
      'a number too large for a float',
    );
  });
  it('reads lines as before: \\r\\n endings, blank lines, comments and a header', () => {
    assert.deepEqual(parseTransfersCsv('bytes, seconds\r\n# from fio\r\n\r\n10,1\r\n20,2'), [
      { bytes: 10, seconds: 1, cumulativeBytes: 10 },
      { bytes: 20, seconds: 2, cumulativeBytes: 30 },
    ]);
  });
});
