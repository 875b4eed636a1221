import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupsOf, mapLimit, refineGroups } from '../../../app/core/space/groups.js';

test('groupsOf keeps only keys shared by two or more items', () => {
  assert.deepEqual(
    groupsOf([1, 2, 3, 4, 5, 6], (n) => n % 3),
    [
      [1, 4],
      [2, 5],
      [3, 6],
    ],
  );
  assert.deepEqual(
    groupsOf(['a', 'b'], (s) => s),
    [],
  );
});

test('mapLimit never runs more than the limit at once and keeps order', async () => {
  let running = 0;
  let peak = 0;
  const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n) => {
    running += 1;
    peak = Math.max(peak, running);
    await new Promise((resolve) => setTimeout(resolve, n));
    running -= 1;
    return n * 10;
  });
  assert.deepEqual(out, [50, 10, 40, 20, 30]);
  assert.equal(peak, 2);
});

test('refineGroups splits by key, drops singletons and counts failures', async () => {
  const result = await refineGroups(
    [
      ['a1', 'a2', 'b1'],
      ['c1', 'c2', 'x'],
    ],
    async (name) => {
      if (name === 'x') throw new Error('unreadable');
      return name[0]!;
    },
    3,
  );
  assert.deepEqual(result.groups, [
    ['a1', 'a2'],
    ['c1', 'c2'],
  ]);
  assert.equal(result.failed, 1);
  assert.equal(result.keys.get('a1'), 'a');
});

test('refineGroups stops when cancelled', async () => {
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(refineGroups([['a', 'b']], async (s) => s, 1, controller.signal));
});
