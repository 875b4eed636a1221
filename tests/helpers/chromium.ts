/** Real Chromium for end-to-end tests, the way TESTING.md says (never a downloaded browser). */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
