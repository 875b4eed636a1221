/**
 * A scan with more groups than one page, in real Chromium through `plumb serve`: a new scan, and
 * reopening the Space view on the kept scan, show the first page of groups and how many there
 * are in all, and each "Load … more" brings the next page until every group is there, in the
 * scan's order; the groups loaded can be chosen as any others, and the Trash total is the whole
 * scan's throughout.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { formatBytes } from '../../app/common/format.js';
import { firstGroupsPage, groupsPage } from '../../app/common/groups-page.js';
import { chromiumMissingReason } from '../helpers/chromium.js';
import { startUiSession, type UiSession } from '../helpers/ui-session.js';

const skip = chromiumMissingReason();
if (skip) console.log(`# skipping the Space paging UI test: ${skip}`);

/** Two pages and a part: 5,000 + 2,000 + 37 (a scan of up to 5,000 is not paged at all). */
const groupCount = firstGroupsPage + groupsPage + 37;
const count = groupCount.toLocaleString('en-US');
let ui: UiSession | undefined;

before(async () => {
  if (skip) return;
  ui = await startUiSession('ui-space-pages');
});

after(async () => {
  await ui?.close();
});

/** `groupCount` pairs of identical files, each pair its own size (2,000 bytes and up). */
function makeTree(root: string): void {
  for (let i = 0; i < groupCount; i += 1) {
    const content = Buffer.alloc(2000 + i, i % 251);
    content.writeUInt32LE(i, 0);
    for (const side of ['a', 'b']) {
      mkdirSync(path.join(root, side), { recursive: true });
      writeFileSync(path.join(root, side, `file-${i}.bin`), content);
    }
  }
}

async function heading(page: Page): Promise<string> {
  return (await page.locator('#groups-title').textContent()) ?? '';
}

/** Presses "Load … more" until every group is loaded, checking each step. */
async function loadEveryPage(page: Page): Promise<void> {
  for (let loaded = firstGroupsPage; loaded < groupCount; loaded += groupsPage) {
    const next = Math.min(groupsPage, groupCount - loaded);
    assert.match(
      await heading(page),
      new RegExp(
        `^${loaded.toLocaleString('en-US')} duplicate groups shown of ${groupCount.toLocaleString('en-US')},`,
      ),
    );
    await page.getByRole('button', { name: `Load ${next.toLocaleString('en-US')} more` }).click();
    await page
      .locator('#groups-title')
      .filter({
        hasText: new RegExp(
          `^${Math.min(loaded + next, groupCount).toLocaleString('en-US')} duplicate`,
        ),
      })
      .waitFor();
  }
  assert.equal(
    await heading(page),
    `${groupCount.toLocaleString('en-US')} duplicate groups, largest saving first`,
  );
  assert.equal(await page.getByRole('button', { name: /^Load \d+ more$/ }).count(), 0);
}

test(
  'a scan and its kept copy show their first page of groups and load the rest',
  { skip, timeout: 180_000 },
  async () => {
    const root = path.join(ui!.work, 'pairs');
    makeTree(root);
    const page = await ui!.openPage('#/space', { viewport: { width: 1280, height: 900 } });
    await page.getByLabel('Folder to look for copies in').fill(root);
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByRole('table', { name: 'Duplicate groups' }).waitFor({ timeout: 60_000 });
    await page.getByTestId('scan-summary').waitFor();
    // Every pair is a real copy: removing them frees their sizes added up.
    const removable = Array.from({ length: groupCount }, (_, i) => 2000 + i).reduce(
      (a, b) => a + b,
    );
    const trashTotal = `About ${formatBytes(removable)}`;
    assert.equal(await page.getByTestId('total-reclaimable').textContent(), trashTotal);
    // A new scan's done event brings its first page too.
    await loadEveryPage(page);

    // Reopened: the kept scan, a page at a time.
    await page.reload();
    await page.getByTestId('scan-age').waitFor({ timeout: 20_000 });
    await ui!.shoot(page, 'ui-space-pages-first');
    assert.equal(
      await page.getByTestId('total-reclaimable').textContent(),
      trashTotal,
      'the whole scan’s total, not the first page’s',
    );
    await loadEveryPage(page);
    // The largest saving first: the last page holds the smallest files.
    const last = page.getByRole('checkbox', { name: 'Select file-0.bin and its copy' });
    await page.getByRole('checkbox', { name: 'Select every group' }).check();
    assert.match(
      (await page.getByTestId('selection-summary').textContent()) ?? '',
      new RegExp(`^${count} groups, ${count} copies · about `),
    );
    await page
      .getByRole('rowgroup')
      .last()
      .evaluate((body) => {
        (body as unknown as { scrollTop: number }).scrollTop = 1e9;
      });
    assert.ok(await last.isChecked(), 'the smallest group, loaded last, is chosen too');
    await ui!.shoot(page, 'ui-space-pages-all');
    await page.close();
    assert.deepEqual(ui!.problems, []);
  },
);
