/**
 * Plain words: the engine's findings shown in its own words (no rewriting), said once for both
 * directions with both figures, a drop's reason kept for a second look, and a verdict in a
 * sentence or two that names only the directions the test ran.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, type PhaseFile } from '../../../app/core/analysis/findings.js';
import { seededRandom } from '../../../app/core/bench/seeded-random.js';
import { formatRate } from '../../../app/common/format.js';
import { headline } from '../../../app/common/headline-rate.js';
import { findingCards } from '../../../renderer/src/ui/result/findings-text.js';
import { plainVerdict } from '../../../renderer/src/ui/result/verdict-sections.js';
import {
  methodExplanations,
  methodNames,
} from '../../../renderer/src/screens/space/duplicates-view.js';
import { baseSeed } from '../../helpers/synthetic-samples.js';
import { modelFiles, resultDocument } from './bench-fixtures.js';

/** A phase's files as the engine analyses them: `count` files of `bytes` at `rate`, ±`spread`. */
function phaseFiles(
  phase: 'write' | 'read',
  count: number,
  bytes: number,
  rate: number,
  random: () => number,
  spread = 0.02,
): PhaseFile[] {
  let cumulative = 0;
  return Array.from({ length: count }, () => {
    cumulative += bytes;
    const seconds = (bytes / rate) * Math.exp(spread * (random() - 0.5));
    return { phase, bytes, seconds, cumulativeBytes: cumulative, t: null };
  });
}

test("a finding both directions share is one card with both counts, in the engine's words", () => {
  // Counts drawn at random, so no sentence below could be written in advance.
  const seed = baseSeed();
  const random = seededRandom(seed);
  const [written, read] = [2 + Math.floor(random() * 300), 2 + Math.floor(random() * 300)];
  const found = findings({
    files: [
      ...phaseFiles('write', written, 1e5, 5e8, random),
      ...phaseFiles('read', read, 1e5, 9e8, random),
    ],
    cacheMode: 'direct',
  });
  const cards = findingCards(found.filter((f) => f.kind === 'small-files'));
  assert.equal(cards.length, 1);
  assert.equal(cards[0]!.title, 'Small files');
  assert.equal(
    cards[0]!.sentence,
    `${written} files written and ${read} read are under 2.00 MB: their rates are dominated by fixed costs and caches, not the drive's speed.`,
  );
});

test('one direction keeps the engine sentence as it is; uneven timings keep both figures', () => {
  const random = seededRandom(baseSeed());
  const [alone] = findingCards(
    findings({ files: phaseFiles('write', 1, 1e5, 5e8, random), cacheMode: 'direct' }),
  );
  assert.equal(
    alone!.sentence,
    "1 file written is under 2.00 MB: their rates are dominated by fixed costs and caches, not the drive's speed.",
  );
  // Times that scatter widely for one size, in both directions (a scatter the engine calls
  // uneven, not two speeds: the same draws as its own unstable-phase test).
  const found = findings({
    files: [
      ...phaseFiles('write', 30, 4e8, 1e9, seededRandom(4), 1.5),
      ...phaseFiles('read', 30, 4e8, 2e9, seededRandom(4), 1.5),
    ],
    cacheMode: 'direct',
  });
  const cards = findingCards(found);
  const uneven = cards.find((card) => card.title === 'Uneven timings');
  assert.ok(uneven, cards.map((card) => card.title).join(', '));
  assert.match(uneven.sentence, /% of the expected time writing, \d+ % reading\): treat/);
  for (const card of cards) assert.doesNotMatch(card.sentence, /file\(s\)|^[a-z]/, card.sentence);
});

test("a drop's card leads with what was measured; its reason is the card's, for 'Why?'", () => {
  const files = phaseFiles('read', 40, 5e8, 2e9, seededRandom(3)).map((f, i) =>
    i < 20 ? f : { ...f, seconds: f.seconds * 4 },
  );
  const [drop] = findings({ files, cacheMode: 'direct' }).filter((f) => f.kind === 'cliff');
  assert.ok(drop && drop.kind === 'cliff');
  const [card] = findingCards([drop]);
  assert.equal(card!.title, 'Read speed dropped');
  assert.equal(card!.sentence, drop.message);
  assert.equal(card!.reason, drop.reason);
  assert.doesNotMatch(card!.reason!, /writ/);
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
