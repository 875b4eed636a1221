/**
 * The Chrome, Chromium or Edge already on this computer that prints reports: Plumb never downloads
 * a browser. Each OS's usual install places, then PATH; `--browser PATH` or PLUMB_BROWSER choose.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { PlumbError } from '../../contract/errors.js';

export interface BrowserSearch {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** True when `file` is an existing file (injected so the search can be tested anywhere). */
  isFile(file: string): boolean;
}

const linuxNames = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'microsoft-edge',
  'microsoft-edge-stable',
];

const macApps = [
  'Google Chrome.app/Contents/MacOS/Google Chrome',
  'Chromium.app/Contents/MacOS/Chromium',
  'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
  'Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
];

const windowsPrograms = [
  'Google\\Chrome\\Application\\chrome.exe',
  'Microsoft\\Edge\\Application\\msedge.exe',
  'Chromium\\Application\\chrome.exe',
];

/** Where to look, in order, on `platform`. */
export function browserCandidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') {
    const roots = [
      '/Applications',
      ...(env.HOME ? [path.posix.join(env.HOME, 'Applications')] : []),
    ];
    return roots.flatMap((root) => macApps.map((app) => path.posix.join(root, app)));
  }
  if (platform === 'win32') {
    const roots = [env.ProgramFiles, env['ProgramFiles(x86)'], env.LOCALAPPDATA].filter(
      (root): root is string => !!root,
    );
    if (roots.length === 0) roots.push('C:\\Program Files', 'C:\\Program Files (x86)');
    return roots.flatMap((root) =>
      windowsPrograms.map((program) => path.win32.join(root, program)),
    );
  }
  const fixed = linuxNames.map((name) => `/usr/bin/${name}`).concat('/snap/bin/chromium');
  const onPath = (env.PATH ?? '')
    .split(path.posix.delimiter)
    .filter((dir) => dir && path.posix.isAbsolute(dir))
    .flatMap((dir) => linuxNames.map((name) => path.posix.join(dir, name)));
  return [...new Set([...fixed, ...onPath])];
}

function installHint(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'Install Google Chrome (google.com/chrome) or Microsoft Edge';
  if (platform === 'win32') return 'Install Google Chrome or Microsoft Edge';
  return 'Install Chromium (Debian/Ubuntu: `sudo apt install chromium`; Fedora: `sudo dnf install chromium`) or Google Chrome';
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
    `Printing a PDF needs Chrome, Chromium or Edge, and none was found. ${installHint(search.platform)}, or name one with --browser PATH (or PLUMB_BROWSER).`,
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
  return { platform: process.platform, env: process.env, isFile };
}
