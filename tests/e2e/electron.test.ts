/**
 * Desktop smoke test with Playwright's Electron driver. It needs the Electron binary, which the
 * macOS and Windows CI jobs install; machines that cannot download it skip with the reason.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { _electron } from 'playwright-core';
import { repoRoot } from '../helpers/cli.js';

function electronBinary(): { path?: string; reason?: string } {
  try {
    const binary = createRequire(import.meta.url)('electron') as unknown;
    return typeof binary === 'string'
      ? { path: binary }
      : { reason: 'the electron module did not give a binary path' };
  } catch (error) {
    return {
      reason: `the Electron binary is not installed here (${(error as Error).message.split('\n')[0]})`,
    };
  }
}

const electron = electronBinary();
if (electron.reason) console.log(`# skipping the Electron smoke test: ${electron.reason}`);

test(
  'the desktop app opens its window on plumb://app and the bridge answers',
  { skip: electron.reason },
  async () => {
    const app = await _electron.launch({ executablePath: electron.path, args: [repoRoot] });
    try {
      const window = await app.firstWindow();
      await window.getByRole('heading', { name: 'Where should Plumb look?' }).waitFor();
      assert.match(window.url(), /^plumb:\/\/app\//);
      const nodeVisible = await window.evaluate(
        () => typeof (globalThis as { require?: unknown }).require,
      );
      assert.equal(nodeVisible, 'undefined');
      const about = await window.evaluate(async () => {
        const bridge = (
          globalThis as unknown as {
            plumb: {
              invoke(n: string, i: unknown): Promise<{ ok: boolean; value: { transport: string } }>;
            };
          }
        ).plumb;
        return bridge.invoke('app.about', {});
      });
      assert.equal(about.ok, true);
      assert.equal(about.value.transport, 'electron');
    } finally {
      await app.close();
    }
  },
);
