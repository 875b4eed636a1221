import assert from 'node:assert/strict';
import { test } from 'node:test';
import type {
  PairedSection,
  PairingResult,
  TaskSection,
} from '../../../app/contract/bench-result.js';
import {
  pairedVerdict,
  pairingName,
  taskVerdict,
} from '../../../renderer/src/ui/result/verdict-sections.js';

const pairing = (name: PairingResult['pairing'], retained: number): PairingResult => ({
  pairing: name,
  aloneA: 1e9,
  aloneB: 1e9,
  togetherA: retained * 1e9,
  togetherB: retained * 1e9,
  aggregate: 2 * retained * 1e9,
  retained,
  interferes: retained < 0.8,
  message: `${name} message`,
});

const section = (pairings: PairingResult[], sameVolume = false): PairedSection => ({
  targets: {
    a: { path: '/a', writeAlone: 1e9, readAlone: 1e9 },
    b: { path: '/b', writeAlone: 1e9, readAlone: 1e9 },
  },
  sameVolume,
  pairings,
});

test('two disks that keep their speeds together: no interference, with each pairing', () => {
  const verdict = pairedVerdict(section([pairing('write+write', 0.97), pairing('read+read', 1)]));
  assert.deepEqual(verdict, {
    title: 'No interference',
    sentence:
      'Used together, each kept its speed alone (both writing: 97 %, both reading: 100 %). Nothing between them is a bottleneck for this work.',
    tone: 'good',
  });
});

test('two disks that slow each other: the worst pairing, and what they share', () => {
  const apart = pairedVerdict(
    section([pairing('write+write', 0.5), pairing('read+read', 0.95), pairing('write+read', 0.6)]),
  );
  assert.equal(apart.title, 'They slow each other down');
  assert.equal(apart.tone, 'warning');
  assert.equal(
    apart.sentence,
    'When both write and when A writes while B reads, together they kept only 50 % of their speeds alone. Something between them is shared: the link, a hub or dock, or a controller.',
  );
  const together = pairedVerdict(section([pairing('write+write', 0.5)], true));
  assert.match(together.sentence, /They are on one volume, so they share it by design\.$/);
  assert.equal(pairingName('write+read'), 'A writing, B reading');
});

test('a task verdict keeps the engine sentence under a plain title', () => {
  const task = (verdict: TaskSection['verdict']): TaskSection => ({
    codec: 'gzip',
    level: 6,
    workers: 2,
    chunkBytes: 4 << 20,
    inputBytes: 1e8,
    compressionRatio: 0.5,
    runs: [],
    diskRate: 1e8,
    memoryRate: 4e8,
    slowdown: 0.75,
    verdict,
    limitedBy: 'read',
    message:
      'The task ran at 100 MB/s on this volume and 400 MB/s in memory: it is disk-bound here.',
  });
  assert.deepEqual(taskVerdict(task('disk-bound')), {
    title: 'Held back by the disk',
    sentence:
      'The task ran at 100 MB/s on this volume and 400 MB/s in memory: it is disk-bound here.',
    tone: 'warning',
  });
  assert.equal(taskVerdict(task('partly-disk-bound')).tone, 'caution');
  assert.equal(taskVerdict(task('cpu-bound')).title, 'The processor sets the pace');
});
