/**
 * The desktop window's security, checked by running the real main-process code against a
 * recording fake of Electron (the binary cannot be installed here; the _electron smoke test runs
 * where it can).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ipcChannels } from '../../app/contract/channels.js';
import type { Reply } from '../../app/contract/index.js';
import {
  mainWindowOptions,
  serveAppRequest,
  startDesktop,
  type ElectronLike,
  type IpcInvokeEvent,
  type WebContentsLike,
} from '../../app/desktop/app.js';
import { appEntryUrl } from '../../app/desktop/security.js';
import { defaultWindowState } from '../../app/desktop/window-state.js';
import { rendererDir } from '../../app/core/paths.js';

type Listener = (...args: never[]) => unknown;
type NavigationListener = (event: { preventDefault(): void }, url: string) => void;

class FakeContents implements WebContentsLike {
  id = 1;
  listeners = new Map<string, Listener[]>();
  sent: unknown[][] = [];
  openHandler?: (details: { url: string }) => { action: 'deny' | 'allow' };
  send(...args: unknown[]) {
    this.sent.push(args);
  }
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' | 'allow' }) {
    this.openHandler = handler;
  }
  isDestroyed() {
    return false;
  }
  /** Fires a navigation event; true when the app prevented it. */
  navigate(event: 'will-navigate' | 'will-redirect', url: string): boolean {
    let prevented = false;
    for (const listener of this.listeners.get(event) ?? []) {
      (listener as NavigationListener)({ preventDefault: () => (prevented = true) }, url);
    }
    return prevented;
  }
}

interface Recorded {
  windows: {
    options: Record<string, unknown>;
    url?: string;
    contents: FakeContents;
    /** show() calls, and the ready-to-show listener the app registered. */
    shows: number;
    readyToShow?: () => void;
  }[];
  ipc: Map<string, (event: IpcInvokeEvent, ...args: unknown[]) => Promise<unknown>>;
  schemes: { scheme: string; privileges: Record<string, boolean> }[];
  permissionRequest?: (
    contents: unknown,
    permission: string,
    callback: (granted: boolean) => void,
  ) => void;
  permissionCheck?: (contents: unknown, permission: string) => boolean;
  appListeners: Map<string, Listener[]>;
  opened: string[];
  themeSource?: string;
  menu?: unknown;
}

function fakeElectron(userData: string): {
  electron: ElectronLike;
  recorded: Recorded;
  ready: () => Promise<void>;
} {
  const recorded: Recorded = {
    windows: [],
    ipc: new Map(),
    schemes: [],
    appListeners: new Map(),
    opened: [],
  };
  let resolveReady!: () => void;
  const readyPromise = new Promise<void>((resolve) => (resolveReady = resolve));
  class FakeWindow {
    webContents = new FakeContents();
    constructor(public options: Record<string, unknown>) {
      recorded.windows.push({ options, contents: this.webContents, shows: 0 });
      for (const listener of recorded.appListeners.get('web-contents-created') ?? []) {
        (listener as (event: unknown, contents: WebContentsLike) => void)({}, this.webContents);
      }
    }
    static getAllWindows() {
      return recorded.windows;
    }
    async loadURL(url: string) {
      recorded.windows.find((w) => w.contents === this.webContents)!.url = url;
    }
    private get record() {
      return recorded.windows.find((w) => w.contents === this.webContents)!;
    }
    once(event: string, listener: () => void) {
      if (event === 'ready-to-show') this.record.readyToShow = listener;
      return this;
    }
    on() {
      return this;
    }
    show() {
      this.record.shows += 1;
    }
    maximize() {}
    isMaximized() {
      return false;
    }
    getNormalBounds() {
      return { x: 0, y: 0, width: 1280, height: 820 };
    }
  }
  const electron: ElectronLike = {
    app: {
      whenReady: () => readyPromise,
      on: (event: string, listener: Listener) => {
        recorded.appListeners.set(event, [...(recorded.appListeners.get(event) ?? []), listener]);
        return undefined;
      },
      getPath: () => userData,
      quit: () => undefined,
      name: 'Plumb',
    } as ElectronLike['app'],
    BrowserWindow: FakeWindow as unknown as ElectronLike['BrowserWindow'],
    ipcMain: { handle: (channel, listener) => void recorded.ipc.set(channel, listener) },
    protocol: {
      registerSchemesAsPrivileged: (schemes) => void recorded.schemes.push(...schemes),
      handle: () => undefined,
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler) => void (recorded.permissionRequest = handler),
        setPermissionCheckHandler: (handler) => void (recorded.permissionCheck = handler),
      },
    },
    shell: {
      openExternal: async (url) => void recorded.opened.push(url),
      showItemInFolder: () => undefined,
    },
    Menu: {
      buildFromTemplate: (template) => template,
      setApplicationMenu: (menu) => void (recorded.menu = menu),
    },
    nativeTheme: {
      set themeSource(value: 'system' | 'light' | 'dark') {
        recorded.themeSource = value;
      },
      get themeSource() {
        return (recorded.themeSource ?? 'light') as 'system';
      },
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    dialog: {
      showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
      showSaveDialog: async () => ({ canceled: true }),
    },
  };
  return { electron, recorded, ready: async () => resolveReady() };
}

let userData: string;
let recorded: Recorded;

before(async () => {
  userData = mkdtempSync(path.join(os.tmpdir(), 'plumb-desktop-'));
  const fake = fakeElectron(userData);
  recorded = fake.recorded;
  startDesktop(fake.electron, '/app/dist/desktop/preload.cjs');
  await fake.ready();
  await new Promise((resolve) => setTimeout(resolve, 20));
});
after(() => rmSync(userData, { recursive: true, force: true }));

test('the window is isolated, sandboxed and has no Node', () => {
  assert.equal(recorded.windows.length, 1);
  const { options, url } = recorded.windows[0]!;
  const prefs = options.webPreferences as Record<string, unknown>;
  assert.equal(prefs.contextIsolation, true);
  assert.equal(prefs.sandbox, true);
  assert.equal(prefs.nodeIntegration, false);
  assert.equal(prefs.nodeIntegrationInWorker, false);
  assert.equal(prefs.nodeIntegrationInSubFrames, false);
  assert.equal(prefs.webSecurity, true);
  assert.equal(prefs.allowRunningInsecureContent, false);
  assert.equal(prefs.webviewTag, false);
  assert.equal(prefs.preload, '/app/dist/desktop/preload.cjs');
  assert.equal(url, appEntryUrl);
  assert.deepEqual(mainWindowOptions('/p', defaultWindowState).webPreferences, {
    ...prefs,
    preload: '/p',
  });
});

test('the window is created hidden and shown when its first paint is ready (no white flash)', () => {
  const window = recorded.windows[0]!;
  assert.equal(window.options.show, false);
  assert.equal(window.shows, 0, 'not shown before ready-to-show');
  assert.ok(window.readyToShow, 'a ready-to-show listener is registered');
  window.readyToShow();
  assert.equal(window.shows, 1);
  assert.equal(mainWindowOptions('/p', defaultWindowState).show, false);
});

test('pages come from a privileged custom scheme with the strict CSP', async () => {
  assert.deepEqual(recorded.schemes, [
    { scheme: 'plumb', privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
  const response = await serveAppRequest('plumb://app/index.html', rendererDir());
  assert.equal(response.status, 200);
  const csp = response.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-(inline|eval)/);
  assert.equal((await serveAppRequest('plumb://app/../../etc/passwd', rendererDir())).status, 404);
  assert.equal((await serveAppRequest('plumb://other/index.html', rendererDir())).status, 404);
});

test('navigation away from the app and window.open are blocked; web links go to the browser', () => {
  const contents = recorded.windows[0]!.contents;
  assert.equal(contents.navigate('will-navigate', 'https://evil.example/'), true);
  assert.equal(contents.navigate('will-navigate', 'file:///etc/passwd'), true);
  assert.equal(contents.navigate('will-redirect', 'http://127.0.0.1:1/'), true);
  assert.equal(contents.navigate('will-navigate', 'plumb://app/index.html#/volume'), false);
  assert.deepEqual(contents.openHandler!({ url: 'https://example.com/docs' }), { action: 'deny' });
  assert.deepEqual(contents.openHandler!({ url: 'file:///etc/passwd' }), { action: 'deny' });
  assert.deepEqual(recorded.opened, ['https://example.com/docs']);
});

test('every permission request and check is denied', () => {
  for (const permission of [
    'media',
    'geolocation',
    'notifications',
    'clipboard-read',
    'openExternal',
  ]) {
    let granted: boolean | undefined;
    recorded.permissionRequest!({}, permission, (value) => (granted = value));
    assert.equal(granted, false, permission);
    assert.equal(recorded.permissionCheck!({}, permission), false, permission);
  }
});

test('IPC is answered only for our own top-level page', async () => {
  const handler = recorded.ipc.get(ipcChannels.call)!;
  assert.ok(handler, 'the call channel is registered');
  const sender = recorded.windows[0]!.contents;
  const call = (frame: IpcInvokeEvent['senderFrame']) =>
    handler({ sender, senderFrame: frame }, 'app.about', {}) as Promise<Reply>;

  const trusted = await call({ url: 'plumb://app/index.html', parent: null });
  assert.equal(trusted.ok, true);
  for (const frame of [
    { url: 'https://evil.example/', parent: null },
    { url: 'file:///tmp/x.html', parent: null },
    { url: 'plumb://app/index.html', parent: {} },
    null,
  ]) {
    const reply = await call(frame);
    assert.equal(reply.ok, false);
    if (!reply.ok) assert.equal(reply.error.code, 'EPERM');
  }
});

test('the theme follows the OS and a native menu is set', () => {
  assert.equal(recorded.themeSource, 'system');
  const labels = (recorded.menu as { label?: string }[]).map((item) => item.label);
  assert.ok(labels.includes('Edit') && labels.includes('View') && labels.includes('Window'));
});
