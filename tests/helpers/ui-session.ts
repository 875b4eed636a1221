/**
 * The set-up the browser tests share: a temp data folder for `plumb serve` (results, journals and
 * scans go there, inherited through the environment), the server, real Chromium, the
 * screenshots folder, the page errors collected, and one `close()` that undoes all of it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openAppPage, type AppPageOptions } from './chromium.js';
import { repoRoot, startServe, type ServeProcess } from './cli.js';

export const artifactsDir = path.join(repoRoot, 'test-artifacts');

export interface UiSession {
  server: ServeProcess;
  browser: Browser;
  /** Temp folder holding PLUMB_DATA_DIR and PLUMB_STATE_DIR; removed by close(). */
  work: string;
  /** Page errors and console errors of every page opened here. */
  problems: string[];
  openPage(hash: string, options?: Omit<AppPageOptions, 'hash' | 'problems'>): Promise<Page>;
  /** A full-page screenshot to test-artifacts/NAME.png, once the charts drew their last frame. */
  shoot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

export interface UiSessionOptions {
  /** How `plumb serve` is started: in a cgroup (a throttled disk's), or with more environment. */
  serve?: Parameters<typeof startServe>[1];
}

export async function startUiSession(
  name: string,
  options: UiSessionOptions = {},
): Promise<UiSession> {
  const work = mkdtempSync(path.join(os.tmpdir(), `plumb-${name}-`));
  mkdirSync(artifactsDir, { recursive: true });
  process.env.PLUMB_DATA_DIR = path.join(work, 'data');
  process.env.PLUMB_STATE_DIR = path.join(work, 'state');
  const problems: string[] = [];
  const server = await startServe([], options.serve);
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    server,
    browser,
    work,
    problems,
    openPage: (hash, options = {}) => openAppPage(browser, server, { ...options, hash, problems }),
    async shoot(page, shot) {
      await page.waitForTimeout(250);
      const file = path.join(artifactsDir, `${shot}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await browser.close();
      await server.stop();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
