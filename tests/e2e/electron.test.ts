/**
 * Desktop smoke test with Playwright's Electron driver. It needs the Electron binary, which the
 * macOS and Windows CI jobs install; machines that cannot download it skip with the reason.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

test(
  'the desktop app prints a report to PDF with printToPDF and saves it where the user chose',
  { skip: electron.reason },
  async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'plumb-electron-pdf-'));
    const target = path.join(out, 'plan.pdf');
    const scenario = JSON.parse(
      readFileSync(path.join(repoRoot, 'examples/scenarios/tb5-vs-usb4-100gb.json'), 'utf8'),
    ) as unknown;
    const app = await _electron.launch({ executablePath: electron.path, args: [repoRoot] });
    try {
      // Only the native save dialog is replaced: it would wait for a person.
      await app.evaluate(({ dialog }, file) => {
        dialog.showSaveDialog = (async () => ({
          canceled: false,
          filePath: file,
        })) as typeof dialog.showSaveDialog;
      }, target);
      const window = await app.firstWindow();
      await window.getByRole('heading', { name: 'Where should Plumb look?' }).waitFor();
      const reply = await window.evaluate(
        async (input) => {
          const bridge = (
            globalThis as unknown as {
              plumb: {
                invoke(
                  n: string,
                  i: unknown,
                ): Promise<{
                  ok: boolean;
                  value?: { path: string | null };
                  error?: { message: string };
                }>;
              };
            }
          ).plumb;
          return bridge.invoke('report.savePdf', input);
        },
        { request: { kind: 'planner', scenario }, paper: 'a4' },
      );
      assert.equal(reply.ok, true, reply.error?.message ?? 'report.savePdf failed');
      assert.equal(reply.value?.path, target);
      const pdf = readFileSync(target);
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
      assert.ok(pdf.length > 20_000, `a report with a chart is more than ${pdf.length} bytes`);
    } finally {
      await app.close();
      rmSync(out, { recursive: true, force: true });
    }
  },
);
