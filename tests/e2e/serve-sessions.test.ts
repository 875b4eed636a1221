/**
 * Two browsers signed in to one `plumb serve`: each sees only what it chose (issue 24). The last
 * scan shown on opening the Space view, a scan's result by id and the facts of a folder's volume
 * are answered only for folders the session chose; a dedupe applies only with the keepers its
 * reviewed dry run showed.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import { openContractSocket, scanned, signIn, type ContractSocket } from '../helpers/web.js';

let server: ServeProcess;
let scratch: string;

before(async () => {
  scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'plumb-sessions-')));
  server = await startServe([], {
    env: {
      PLUMB_DATA_DIR: path.join(scratch, 'data'),
      PLUMB_STATE_DIR: path.join(scratch, 'state'),
    },
  });
});
after(async () => {
  assert.equal(await server.stop(), 0);
  rmSync(scratch, { recursive: true, force: true });
});

async function newSession(): Promise<ContractSocket> {
  return openContractSocket(server, await signIn(server));
}

/** A folder holding `copies` identical files (one group of duplicates). */
function duplicatesFolder(name: string, copies = 2): string {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  const content = Buffer.alloc(64 * 1024, name.length);
  for (let i = 0; i < copies; i += 1) writeFileSync(path.join(dir, `copy-${i}.bin`), content);
  return dir;
}

async function lastScanRoot(socket: ContractSocket): Promise<string | null> {
  const reply = await socket.call('space.lastScan', {});
  assert.equal(reply.ok, true, JSON.stringify(reply.error));
  return (reply.value as { result: { root: string } } | null)?.result.root ?? null;
}

describe('each signed-in browser sees only what it chose', () => {
  test('the last scan and a scan by id are shown only to the session that chose the folder', async () => {
    const alice = await newSession();
    const bob = await newSession();
    try {
      const hers = await scanned(alice, duplicatesFolder('alice-photos'));
      // Saved in the data folder both share; the newest scan there is hers.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(await lastScanRoot(bob), null, 'nothing of hers on opening his Space view');
      const byId = await bob.call('space.result', { scanId: hers.scanId });
      assert.equal(byId.error?.code, 'ENOTCHOSEN', 'nor her scan by its id');
      assert.equal(await lastScanRoot(alice), hers.root);

      const his = await scanned(bob, duplicatesFolder('bob-music'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(await lastScanRoot(bob), his.root);
      assert.equal(await lastScanRoot(alice), hers.root, 'his newer scan is not hers to see');
      const path = await alice.call('space.lastScan', { path: his.root });
      assert.equal(path.error?.code, 'ENOTCHOSEN');
    } finally {
      alice.close();
      bob.close();
    }
  });

  test('a dedupe applies only with the keepers of the dry run that was shown', async () => {
    const socket = await newSession();
    try {
      const scan = await scanned(socket, duplicatesFolder('keepers', 3));
      const [group] = scan.groups;
      assert.ok(group && group.files.length === 3, 'one group of three copies');
      const shown = { [group.id]: group.files[0]!.path };
      const other = { [group.id]: group.files[2]!.path };
      const dryRun = await socket.call('space.dedupe', { scanId: scan.scanId, keepers: shown });
      assert.equal(dryRun.ok, true, JSON.stringify(dryRun.error));
      for (const keepers of [other, undefined]) {
        const swapped = await socket.call('space.dedupe', {
          scanId: scan.scanId,
          keepers,
          apply: true,
        });
        assert.equal(swapped.error?.code, 'ENOTREVIEWED', `keepers ${JSON.stringify(keepers)}`);
      }
      const applied = await socket.call('space.dedupe', {
        scanId: scan.scanId,
        keepers: shown,
        apply: true,
      });
      assert.equal(applied.ok, true, JSON.stringify(applied.error));
    } finally {
      socket.close();
    }
  });

  test('the facts of a volume only for a chosen folder, and no hint of what exists', async () => {
    const socket = await newSession();
    try {
      const existing = duplicatesFolder('volume-facts');
      const missing = path.join(scratch, 'no-such-folder');
      const replies = await Promise.all(
        [existing, missing].map((target) => socket.call('volume.info', { path: target })),
      );
      for (const [index, target] of [existing, missing].entries()) {
        assert.equal(replies[index]!.error?.code, 'ENOTCHOSEN');
        // The same sentence, the path aside: an answer does not tell which of them exists.
        assert.equal(
          replies[index]!.error?.message.replace(target, 'PATH'),
          replies[0]!.error?.message.replace(existing, 'PATH'),
        );
      }
      await socket.call('session.choosePath', { path: existing });
      const info = await socket.call('volume.info', { path: existing });
      assert.equal(info.ok, true, JSON.stringify(info.error));
      assert.equal((info.value as { path: string }).path, existing);
    } finally {
      socket.close();
    }
  });
});
