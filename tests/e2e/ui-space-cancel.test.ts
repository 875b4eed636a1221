// plumb-test: alone (it measures rates or times on a throttled disk; see scripts/test.mjs)
/**
 * Cancelling a duplicate scan from the Space view, in real Chromium through `plumb serve`, on a
 * disk slow enough to catch the scan mid-hash: the server reads an ext4 loop device through a
 * cgroup block throttle (3 MB/s), with the page cache dropped first. The progress card must show
 * a time left, Cancel must end the scan within a couple of seconds, and the next scan must work.
 * The sparse-file listing is cancelled the same way, mid-walk on a slower throttle, and so is the
 * search for sparse candidates while it reads a large file for zeros.
 */
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { plainCopy, randomFile } from '../helpers/space-files.js';
import { artifactsDir, startUiSession, type UiSession } from '../helpers/ui-session.js';
import {
  createWriteThrottle,
  throttleSkipReason,
  type WriteThrottle,
} from '../helpers/throttle.js';

const skip = chromiumMissingReason() ?? loopSkipReason('ext4') ?? throttleSkipReason();
if (skip) console.log(`# skipping the Space scan-cancel test: ${skip}`);

const MiB = 1024 * 1024;
const groups = 6;
const fileBytes = 6 * MiB;
const folders = 600;
let fs: MountedFs | undefined;
let throttle: WriteThrottle | undefined;
let ui: UiSession | undefined;

before(async () => {
  if (skip) return;
  fs = mountLoopFs('ext4', { sizeBytes: 256 * MiB });
  // True copies of equal size: telling them apart takes reading every byte (72 MiB in all).
  mkdirSync(path.join(fs.dir, 'images'));
  for (let i = 0; i < groups; i += 1) {
    const original = randomFile(path.join(fs.dir, 'photos', `raw-${i}.dng`), fileBytes);
    plainCopy(original, path.join(fs.dir, 'backup', `raw-${i}.dng`));
  }
  // Many small folders: walking them cold reads a directory block each.
  for (let i = 0; i < folders; i += 1) {
    mkdirSync(path.join(fs.dir, 'many', `f${i}`), { recursive: true });
    writeFileSync(path.join(fs.dir, 'many', `f${i}`, 'note.txt'), `${i}\n`);
  }
  // A disk image of written zeros, just above the 64 MB the search for candidates reads.
  const image = openSync(path.join(fs.dir, 'images', 'vm.img'), 'w');
  for (let i = 0; i < 65; i += 1) writeSync(image, Buffer.alloc(MiB));
  closeSync(image);
  throttle = createWriteThrottle(fs.device!, 1e12);
  ui = await startUiSession('space-cancel', { serve: { cgroupProcsFile: throttle.procsFile } });
});

after(async () => {
  await ui?.close();
  throttle?.remove();
  fs?.unmount();
});

/**
 * Makes the next scan read from the (throttled) device rather than from memory. Twice: metadata
 * written moments ago is still held by the ext4 journal at the first drop, and survives it.
 */
function dropPageCache(): void {
  for (let i = 0; i < 2; i += 1) {
    spawnSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
  }
}

/** The Space view in Chromium, its console errors collected in the session's `problems`. */
function openSpacePage() {
  return ui!.openPage('#/space', { viewport: { width: 1280, height: 860 } });
}

test(
  'a scan shows its time left, stops within two seconds of Cancel, and the next scan works',
  { skip, timeout: 120_000 },
  async () => {
    const page = await openSpacePage();
    await page.getByRole('heading', { name: 'Reclaim space' }).waitFor();

    dropPageCache();
    throttle!.setReadBytesPerSecond(3e6);
    await page.getByLabel('Folder to look for copies in').fill(fs!.dir);
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    const card = page.getByRole('article', { name: `Scanning ${fs!.dir}` });
    await card.waitFor();
    // Hashing has begun and the card says how long is left (a duration, not "Estimating…").
    const bar = card.getByRole('progressbar', { name: 'Scan progress' });
    const timeLeft = card.getByTestId('scan-time-left');
    for (const deadline = Date.now() + 30_000; ; await page.waitForTimeout(100)) {
      const value = await bar.getAttribute('aria-valuenow');
      const left = (await timeLeft.textContent()) ?? '';
      if (value !== null && /\d/.test(left)) break;
      if (Date.now() > deadline)
        throw new Error(`no time left was shown (progress ${value}, time left "${left}")`);
    }
    assert.equal(await bar.getAttribute('aria-valuetext'), 'Hashing candidates');
    const done = Number(await bar.getAttribute('aria-valuenow'));
    assert.ok(done < 100, `the scan must still be running when cancelled (at ${done} %)`);

    const clicked = Date.now();
    await card.getByRole('button', { name: 'Cancel scan' }).click();
    await page.getByText(/^Scan cancelled\. Nothing was changed/).waitFor({ timeout: 10_000 });
    const seconds = (Date.now() - clicked) / 1000;
    console.log(`the scan stopped ${seconds.toFixed(2)} s after Cancel, at ${done} % hashed`);
    assert.ok(seconds < 2, `cancel took ${seconds.toFixed(2)} s`);
    assert.equal(await page.getByRole('table', { name: 'Duplicate groups' }).count(), 0);

    // The server is free again: a full scan at the disk's own speed finds every pair.
    throttle!.setReadBytesPerSecond(1e12);
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    const table = page.getByRole('table', { name: 'Duplicate groups' });
    await table.waitFor({ timeout: 60_000 });
    assert.equal(await table.getByRole('row').count(), groups + 1, 'one row per pair + header');
    await page.close();
    assert.deepEqual(ui!.problems, []);
  },
);

test(
  'the sparse-file listing shows its walk and stops within two seconds of Cancel',
  { skip, timeout: 120_000 },
  async () => {
    const page = await openSpacePage();
    await page.getByRole('tab', { name: 'Sparse files' }).click();
    await page.getByRole('heading', { name: 'Files with holes' }).waitFor();
    const folder = path.join(fs!.dir, 'many');

    dropPageCache();
    throttle!.setReadBytesPerSecond(100e3);
    await page.getByLabel('Folder to list sparse files in').fill(folder);
    await page.getByRole('button', { name: 'List sparse files' }).click();
    const card = page.getByRole('article', { name: `Looking for sparse files in ${folder}` });
    await card.waitFor();
    // The walk has reported (the bar names its phase); reading 600 folders cold at 100 kB/s
    // takes seconds more, so Cancel lands inside it.
    const bar = card.getByRole('progressbar', { name: 'Sparse-file search progress' });
    for (const deadline = Date.now() + 30_000; ; await page.waitForTimeout(50)) {
      if ((await bar.getAttribute('aria-valuetext')) === 'Listing files') break;
      if (Date.now() > deadline) throw new Error('the walk never reported');
    }
    assert.match((await card.getByTestId('sparse-files').textContent()) ?? '', /^[\d,]+$/);
    assert.equal(await card.getByTestId('sparse-time-left').textContent(), 'Estimating…');
    await page.screenshot({ path: path.join(artifactsDir, 'ui-space-sparse-listing.png') });

    const clicked = Date.now();
    await card.getByRole('button', { name: 'Cancel' }).click();
    // Only a cancelled listing says this; one that had finished would list its (no) files.
    await page.getByText(/^Stopped looking in .*Nothing was changed/).waitFor({ timeout: 10_000 });
    const seconds = (Date.now() - clicked) / 1000;
    console.log(`the sparse listing stopped ${seconds.toFixed(2)} s after Cancel`);
    assert.ok(seconds < 2, `cancel took ${seconds.toFixed(2)} s`);

    // And the listing runs to the end at the disk's own speed.
    throttle!.setReadBytesPerSecond(1e12);
    await page.getByRole('button', { name: 'List sparse files' }).click();
    await page.getByText(`No sparse files in ${folder}.`, { exact: false }).waitFor();
    await page.close();
    assert.deepEqual(ui!.problems, []);
  },
);

test(
  'the search for runs of zeros shows its reading and time left, and stops within two seconds of Cancel',
  { skip, timeout: 120_000 },
  async () => {
    const page = await openSpacePage();
    await page.getByRole('tab', { name: 'Sparse files' }).click();
    const folder = path.join(fs!.dir, 'images');
    await page.getByLabel('Folder to list sparse files in').fill(folder);
    await page.getByRole('button', { name: 'List sparse files' }).click();
    await page.getByText(`No sparse files in ${folder}.`, { exact: false }).waitFor();

    // 65 MiB read from the device at 3 MB/s: about twenty seconds, so Cancel lands mid-file.
    dropPageCache();
    throttle!.setReadBytesPerSecond(3e6);
    await page.getByRole('button', { name: 'Look for runs of zeros' }).click();
    const card = page.getByRole('article', { name: `Looking for runs of zeros in ${folder}` });
    await card.waitFor();
    const bar = card.getByRole('progressbar', { name: 'Search for runs of zeros' });
    const timeLeft = card.getByTestId('candidates-time-left');
    for (const deadline = Date.now() + 30_000; ; await page.waitForTimeout(100)) {
      const phase = await bar.getAttribute('aria-valuetext');
      const left = (await timeLeft.textContent()) ?? '';
      if (phase === 'Reading 1 large file for runs of zeros' && /\d/.test(left)) break;
      if (Date.now() > deadline)
        throw new Error(`the reading never reported a time left (${phase}, "${left}")`);
    }

    const clicked = Date.now();
    await card.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('sparse-candidates-cancelled').waitFor({ timeout: 10_000 });
    const seconds = (Date.now() - clicked) / 1000;
    console.log(`the search for runs of zeros stopped ${seconds.toFixed(2)} s after Cancel`);
    assert.ok(seconds < 2, `cancel took ${seconds.toFixed(2)} s`);
    assert.equal(await page.getByTestId('sparse-candidates').count(), 0);

    // At the disk's own speed the search runs to the end and names the image.
    throttle!.setReadBytesPerSecond(1e12);
    await page.getByRole('button', { name: 'Look for runs of zeros' }).click();
    const list = page.getByTestId('sparse-candidates');
    await list.waitFor({ timeout: 60_000 });
    assert.match((await list.textContent()) ?? '', /vm\.img frees 68\.2 MB of 68\.2 MB allocated/);
    await page.close();
    assert.deepEqual(ui!.problems, []);
  },
);
