/**
 * The Chrome, Chromium or Edge already on this computer that prints reports: Plumb never downloads
 * a browser. Each OS's usual install places, then PATH; `--browser PATH` or PLUMB_BROWSER choose.
 */
import { existsSync, statSync } from 'node:fs';
import { PlumbError } from '../../contract/errors.js';
import { hostOs, osModule } from '../os/index.js';

export interface BrowserSearch {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** True when `file` is an existing file (injected so the search can be tested anywhere). */
  isFile(file: string): boolean;
}

/** Where to look, in order, on `platform` (each OS module's usual install places). */
export function browserCandidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  return osModule(platform).browserCandidates(env);
}

/**
 * The browser to print with: `chosen` (or PLUMB_BROWSER) when given, else the first one found.
 * Throws ENOBROWSER with a sentence that says what to install.
 */
export function findBrowser(chosen: string | undefined, search: BrowserSearch): string {
  const named = chosen ?? search.env.PLUMB_BROWSER;
  if (named) {
    if (search.isFile(named)) return named;
    throw new PlumbError(
      'ENOBROWSER',
      `No browser at ${named}: give the path of the Chrome, Chromium or Edge program itself.`,
    );
  }
  const found = browserCandidates(search.platform, search.env).find((file) => search.isFile(file));
  if (found) return found;
  throw new PlumbError(
    'ENOBROWSER',
    `Printing a PDF needs Chrome, Chromium or Edge, and none was found. ${osModule(search.platform).browserInstallHint}, or name one with --browser PATH (or PLUMB_BROWSER).`,
  );
}

function isFile(file: string): boolean {
  try {
    return existsSync(file) && statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The search on this computer. */
export function systemBrowserSearch(): BrowserSearch {
  return { platform: hostOs.platform, env: process.env, isFile };
}
