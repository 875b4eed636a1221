/**
 * Plain words: findings said once when both directions say the same, counts
 * in words, and a verdict in a sentence or two that names only the directions the test ran.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../../app/contract/bench.js';
import { formatRate } from '../../../app/common/format.js';
import { headline } from '../../../app/common/headline-rate.js';
import { findingCards } from '../../../renderer/src/screens/bench/findings-text.js';
import { plainVerdict } from '../../../renderer/src/screens/bench/verdict-sections.js';
import {
  methodExplanations,
  methodNames,
} from '../../../renderer/src/screens/space/duplicates-view.js';
import { modelFiles, resultDocument } from './bench-fixtures.js';

const smallFiles = (phase: 'write' | 'read', count: number): Finding => ({
  kind: 'small-files',
  phase,
  message: `${count} ${phase} file(s) are under 2.00 MB: their rates are dominated by fixed costs and caches, not the drive's speed.`,
  count,
  thresholdBytes: 2e6,
});

const uneven = (phase: 'write' | 'read', spread: number): Finding => ({
  kind: 'unstable',
  phase,
  message: `${phase} times vary widely for files of similar size (middle 60 % span ${Math.round(spread * 100)} % of the expected time): treat the figures as rough.`,
  spread,
});

test('a finding both directions share is one card, its count in words', () => {
  // Counts drawn at random, so no sentence below could be written in advance.
  const count = 2 + Math.floor(Math.random() * 300);
  const cards = findingCards([smallFiles('write', count), smallFiles('read', count)]);
  assert.equal(cards.length, 1);
  assert.equal(cards[0]!.title, 'Small files');
  assert.equal(
    cards[0]!.sentence,
    `Both write and read: ${count} files are under 2.00 MB: their rates are dominated by fixed costs and caches, not the drive's speed.`,
  );
});

test('one direction keeps its own words; different figures share one card and keep both', () => {
  const [alone] = findingCards([smallFiles('write', 1)]);
  assert.match(alone!.sentence, /^1 file written is under 2\.00 MB: /);
  assert.doesNotMatch(alone!.sentence, /file\(s\)/);

  const cards = findingCards([uneven('write', 3.48), smallFiles('write', 9), uneven('read', 0.63)]);
  assert.deepEqual(
    cards.map((card) => card.title),
    ['Uneven timings', 'Small files'],
  );
  assert.match(cards[0]!.sentence, /348 % of the expected time writing, 63 % reading/);
  assert.ok(cards.every((card) => !/\bfile\(s\)|\[seed-/.test(card.sentence)));
});

test('the verdict says what the disk did in a sentence, naming only the directions run', () => {
  const files = modelFiles({
    sizes: [1e6, 1e7, 1e8, 1e9],
    fastRate: 1.2e9,
    slowRate: 1.2e9,
    cacheBytes: 1e12,
    readRate: 2.5e9,
    latencySeconds: 0.001,
  });
  const both = resultDocument('both', files);
  const said = plainVerdict(both);
  // The same figures and basis the tiles, the history and the PDF show.
  const rate = (phase: 'write' | 'read') => formatRate(headline(both, phase).rate);
  assert.equal(
    said,
    `This disk wrote at ${rate('write')} and read at ${rate('read')} (${headline(both, 'write').basis} each way), with the system cache out of the way.`,
  );

  const writeOnly = resultDocument(
    'write-only',
    files.filter((f) => f.phase === 'write'),
  );
  const written = plainVerdict(writeOnly);
  assert.match(written, /^This disk wrote at /);
  assert.doesNotMatch(written, /read|—/);

  // Only small files: no figure that would not be the drive's, and the reason in words.
  const small = resultDocument(
    'small',
    files.filter((f) => f.bytes < 2e6),
  );
  assert.match(plainVerdict(small), /^All the files of this test were under 2 MB, /);
});

test('the confirmation names each way of sharing storage in words, not system calls', () => {
  const said = Object.entries(methodNames).map(
    ([method, name]) => `${name}. ${methodExplanations[method as keyof typeof methodNames]}`,
  );
  assert.equal(said.length, 2);
  for (const text of said) assert.doesNotMatch(text, /FIDEDUPERANGE|inode|metadata|kernel|ioctl/i);
});
