/**
 * The desktop window's security policy, kept free of Electron imports so a test can read it:
 * isolated, sandboxed, no Node in the page, our own origin only, no new windows, no permissions.
 */
export const appScheme = 'plumb';
export const appOrigin = `${appScheme}://app`;
export const appEntryUrl = `${appOrigin}/index.html`;

export const secureWebPreferences = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  safeDialogs: true,
  spellcheck: false,
} as const;

/** True only for pages Plumb serves itself from its custom protocol. */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${appScheme}:` && parsed.host === 'app';
  } catch {
    return false;
  }
}

/** An IPC message is trusted only from our own top-level page in one of our windows. */
export function isTrustedSender(
  frame: { url: string; parent?: unknown } | null | undefined,
): boolean {
  return !!frame && !frame.parent && isAppUrl(frame.url);
}

/** Links to the web open in the user's browser; everything else stays blocked. */
export function externalLinkTarget(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}
