/**
 * The file kept in clone mode is the one the user chose, not the scan's (the oldest): on an XFS
 * reflink volume, after a dedupe with a chosen keeper, the chosen file is the same inode on the
 * same blocks, every other copy reads from those blocks (their own are freed, as predicted and
 * measured), and each replaced copy keeps its content and metadata. Both methods, and through the
 * contract as the app calls it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { chmodSync, lstatSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

// Journals and kept scans of the contract's calls go to a folder of this test's own.
const state = mkdtempSync(path.join(tmpdir(), 'plumb-space-keeper-state-'));
process.env.PLUMB_STATE_DIR = state;
process.env.PLUMB_DATA_DIR = state;
after(() => rmSync(state, { recursive: true, force: true }));

const { SpaceEvent } = await import('../../app/contract/space.js');
const { createDispatcher } = await import('../../app/core/dispatch.js');
const { createHandlers } = await import('../../app/core/services.js');
const { createAppContext } = await import('../../app/core/context.js');
const { loadNative } = await import('../../app/core/native/load.js');
const { dedupeGroups } = await import('../../app/core/space/dedupe.js');
const { scanFolder } = await import('../../app/core/space/scan.js');
const { loopSkipReason, mountLoopFs } = await import('../helpers/loopfs.js');
const { freeBytes, plainCopy, randomFile, setXattr, snapshot } =
  await import('../helpers/space-files.js');
type DedupeMethod = import('../../app/contract/space.js').DedupeMethod;
type DedupeReport = import('../../app/contract/space.js').DedupeReport;
type ScanResult = import('../../app/contract/space.js').ScanResult;
type MountedFs = import('../helpers/loopfs.js').MountedFs;

const block = 4096;

/** The physical blocks of a file, as [physical offset, length] pairs in file order. */
async function blocksOf(file: string): Promise<[number, number][]> {
  const sharing = await loadNative().fileSharing(file);
  assert.ok(sharing.extents, `${file}: the extent map`);
  return sharing.extents.map((e) => [e.physical, e.length]);
}

/**
 * Three copies, the original the oldest (so the scan keeps it), each with its own metadata; a
 * size drawn at random, never a whole number of blocks.
 */
function threeCopies(dir: string): { original: string; copies: string[]; size: number } {
  const size = randomInt(1, 5) * 1024 * 1024 + randomInt(1, block);
  const original = randomFile(path.join(dir, 'camera', 'clip.mov'), size);
  execFileSync('touch', ['-d', '2015-03-04 05:06:07', original]);
  const copies = [
    plainCopy(original, path.join(dir, 'backup', 'clip.mov')),
    plainCopy(original, path.join(dir, 'keep here', 'clip.mov')),
  ];
  chmodSync(copies[0]!, 0o640);
  setXattr(copies[1]!, 'user.xdg.comment', 'the one to keep');
  execFileSync('touch', ['-d', '2021-07-08 09:10:11.987654321', copies[1]!]);
  return { original, copies, size };
}

function checkKept(report: DedupeReport, chosen: string, others: string[]): void {
  assert.deepEqual(
    report.actions.map((a) => [a.keeper, a.status]),
    others.map(() => [chosen, 'done']),
    JSON.stringify(report.actions),
  );
  assert.deepEqual(report.actions.map((a) => a.target).sort(), [...others].sort());
}

describe('the chosen keeper in clone mode (xfs reflink)', { skip: loopSkipReason('xfs') }, () => {
  let fs: MountedFs;
  before(() => {
    fs = mountLoopFs('xfs', { sizeBytes: 320 * 1024 * 1024, mkfsArgs: ['-m', 'reflink=1'] });
  });
  after(() => fs.unmount());
  const journalDir = path.join(state, 'journal');

  for (const method of ['dedupe-range', 'clone-rename'] as DedupeMethod[]) {
    test(`${method}: the chosen copy stays, the others become its clones`, async () => {
      const root = path.join(fs.dir, method);
      const { original, copies, size } = threeCopies(root);
      const chosen = copies[1]!;
      const others = [original, copies[0]!];
      const scan = await scanFolder({ path: root });
      assert.equal(scan.groups.length, 1);
      const group = scan.groups[0]!;
      assert.equal(group.keeper, original, 'the scan keeps the oldest');

      const before = new Map([original, ...copies].map((f) => [f, snapshot(f)]));
      const inodes = new Map([original, ...copies].map((f) => [f, lstatSync(f).ino]));
      const chosenBlocks = await blocksOf(chosen);
      const keepers = { [group.id]: chosen };

      const plan = await dedupeGroups(scan.groups, { apply: false, method, keepers });
      assert.equal(plan.counts.planned, 2);
      // The scan's keeper is now a copy: it frees its own blocks, not nothing.
      const allocated = Math.ceil(size / block) * block;
      assert.equal(plan.predictedBytes, 2 * allocated);

      const free = freeBytes(fs.dir);
      const report = await dedupeGroups(scan.groups, {
        apply: true,
        method,
        keepers,
        journalDir,
      });
      const measured = freeBytes(fs.dir) - free;
      checkKept(report, chosen, others);
      assert.equal(report.predictedBytes, 2 * allocated);
      for (const figure of [report.measuredFreedBytes!, measured]) {
        assert.ok(Math.abs(figure - 2 * allocated) <= 2 * block, `freed ${figure}`);
      }

      // The chosen file is untouched: the same inode on the same blocks.
      assert.equal(lstatSync(chosen).ino, inodes.get(chosen));
      assert.deepEqual(await blocksOf(chosen), chosenBlocks);
      for (const other of others) {
        assert.deepEqual(await blocksOf(other), chosenBlocks, `${other} reads the kept blocks`);
        // In place (dedupe-range) the inode stays; clone-rename swaps in a clone of the keeper.
        const sameInode = lstatSync(other).ino === inodes.get(other);
        assert.equal(sameInode, method === 'dedupe-range', other);
      }
      // Content and each file's own metadata (mode, owner, times, xattrs) as before.
      for (const [file, was] of before) assert.deepEqual(snapshot(file), was, file);
    });
  }

  test('through the contract: space.dedupe with keepers, as the app sends it', async () => {
    const root = path.join(fs.dir, 'contract');
    const { original, copies } = threeCopies(root);
    const dispatcher = createDispatcher(createHandlers(createAppContext(), 'web'));
    const quiet = { emit: () => undefined };
    await dispatcher.call('session.choosePath', { path: root }, quiet);
    let finished!: (scanId: string) => void;
    const done = new Promise<string>((resolve) => (finished = resolve));
    await dispatcher.call(
      'space.scan',
      { path: root },
      {
        emit: (name, payload) => {
          if (name !== 'space.event') return; // the scan's job events aside
          const event = SpaceEvent.parse(payload);
          if (event.type === 'done') finished(event.scanId);
        },
      },
    );
    const scanId = await done;
    const result = (await dispatcher.call('space.result', { scanId }, quiet)) as ScanResult | null;
    const group = result!.groups[0]!;
    assert.equal(group.keeper, original);
    const chosen = copies[0]!;
    const inode = lstatSync(chosen).ino;
    const chosenBlocks = await blocksOf(chosen);
    const call = async (apply: boolean) =>
      (await dispatcher.call(
        'space.dedupe',
        { scanId, groupIds: [group.id], keepers: { [group.id]: chosen }, apply },
        quiet,
      )) as DedupeReport;
    const plan = await call(false);
    assert.deepEqual(
      plan.actions.map((a) => a.keeper),
      [chosen, chosen],
    );
    const report = await call(true);
    checkKept(report, chosen, [original, copies[1]!]);
    assert.equal(lstatSync(chosen).ino, inode);
    for (const other of [original, copies[1]!]) {
      assert.deepEqual(await blocksOf(other), chosenBlocks, other);
    }
    // A file outside the group cannot be chosen.
    await assert.rejects(
      dispatcher.call(
        'space.dedupe',
        { scanId, groupIds: [group.id], keepers: { [group.id]: path.join(root, 'elsewhere') } },
        quiet,
      ),
      { code: 'EINVAL', message: /is not a file of group .*; choose one of its files to keep/ },
    );
  });
});
