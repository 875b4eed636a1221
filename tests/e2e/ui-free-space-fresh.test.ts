/**
 * Free space shown on Volumes and Test a disk follows the disk without a reload (issue 25: it stayed
 * as it was until the page was reloaded, and the stale figure then gave wrong advice). In real
 * Chromium on a small ext4 loop disk: a file written and then deleted outside Plumb shows in the
 * figures once the user moves between sections.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const skip = chromiumMissingReason() ?? loopSkipReason('ext4');
if (skip) console.log(`# skipping the fresh free-space test: ${skip}`);

let ui: UiSession | undefined;
let disk: MountedFs | undefined;
before(async () => {
  if (skip) return;
  disk = mountLoopFs('ext4', { sizeBytes: 400e6 });
  ui = await startUiSession('free-space-fresh');
});
after(async () => {
  await ui?.close();
  disk?.unmount();
});

/** The free figure ("123 MB free of 380 MB") in an element's text. */
async function freeFigure(element: Locator): Promise<string> {
  const match = /([\d.]+ [kMG]?B) free of/.exec((await element.textContent()) ?? '');
  assert.ok(match, `no free space in: ${await element.textContent()}`);
  return match[1]!;
}

async function changes(read: () => Promise<string>, from: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const now = await read();
    if (now !== from) return now;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the free space stayed at ${from}`);
}

test(
  'free space on Volumes and Test a disk follows the disk, no reload',
  { skip, timeout: 90_000 },
  async () => {
    const page = await ui!.openPage('');
    const sections = page.getByRole('navigation', { name: 'Sections' });
    const card = page.getByRole('listitem').filter({ hasText: disk!.dir });
    await card.waitFor();
    const before = await freeFigure(card);

    // Written outside Plumb; the user moves to Test a disk: its list shows the new figure.
    const filler = path.join(disk!.dir, 'filler.bin');
    writeFileSync(filler, Buffer.alloc(150e6, 1));
    await sections.getByRole('link', { name: 'Test a disk' }).click();
    await page.getByRole('heading', { name: 'Test a disk' }).waitFor();
    const pickLabel = page.locator('label.volume-choice', { hasText: disk!.dir });
    const filled = await changes(() => freeFigure(pickLabel), before);

    // Back on Volumes, and after the file is deleted, each figure follows.
    await sections.getByRole('link', { name: 'Volumes' }).click();
    assert.equal(await changes(() => freeFigure(card), before), filled);
    rmSync(filler);
    await sections.getByRole('link', { name: 'Test a disk' }).click();
    assert.equal(await changes(() => freeFigure(pickLabel), filled), before);
    assert.deepEqual(ui!.problems, []);
    await page.close();
  },
);
