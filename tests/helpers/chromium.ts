/** Real Chromium for end-to-end tests, the way TESTING.md says (never a downloaded browser). */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const candidates = [
  process.env.PLUMB_CHROMIUM,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
].filter((p): p is string => !!p);

export function chromiumPath(): string | undefined {
  return candidates.find((p) => existsSync(p));
}

/** Why Chromium tests cannot run here, or undefined when they can. */
export function chromiumMissingReason(): string | undefined {
  return chromiumPath()
    ? undefined
    : `no Chromium or Chrome found (looked at ${candidates.join(', ')}); apt-get install chromium`;
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error(chromiumMissingReason());
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface AppPageOptions {
  /** Replaces the URL's #hash, e.g. '#/space'. */
  hash?: string;
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
  /** Page errors and console errors are appended here (console warnings too, unless false). */
  problems: string[];
  warnings?: boolean;
}

/**
 * A new page of the app that `server` runs, signed in with a fresh one-time link (each page is
 * its own browser context, with its own cookies), its errors collected for the test to check.
 */
export async function openAppPage(
  browser: Browser,
  server: { nextUrl(): Promise<URL> },
  options: AppPageOptions,
): Promise<Page> {
  const url = await server.nextUrl();
  const { problems, warnings = true } = options;
  const page = await browser.newPage({
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
  page.on('console', (message) => {
    if (message.type() === 'error' || (warnings && message.type() === 'warning'))
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${url.href.replace(/#.*$/, '')}${options.hash ?? ''}`);
  return page;
}
