/**
 * The Electron main process, written against the small slice of Electron it uses (injected), so
 * its security wiring runs in tests without the Electron binary. main.ts passes the real module.
 */
import { readFile } from 'node:fs/promises';
import { ipcChannels } from '../contract/channels.js';
import type { Reply } from '../contract/index.js';
import { toErrorPayload, PlumbError } from '../contract/errors.js';
import { createDispatcher, type CallContext, type Dispatcher } from '../core/dispatch.js';
import { eventHub, type EventHub } from '../core/event-hub.js';
import { rendererDir } from '../core/paths.js';
import { contentSecurityPolicy } from '../core/security/csp.js';
import { createAppContext, type AppContext } from '../core/context.js';
import { prepareReport, reportSources } from '../core/report/service.js';
import { createHandlers } from '../core/services.js';
import { contentTypeOf, resolveStatic } from '../core/static-files.js';
import { menuTemplate, type MenuItem } from './menu.js';
import { ReportShelf, savePdfHandler, type PrintWindowLike } from './print-report.js';
import {
  appEntryUrl,
  appScheme,
  externalLinkTarget,
  isAppUrl,
  isTrustedSender,
  secureWebPreferences,
} from './security.js';
import {
  loadWindowState,
  saveWindowState,
  type DisplayArea,
  type WindowState,
} from './window-state.js';

interface Frame {
  url: string;
  parent: unknown;
}
interface NavigationEvent {
  preventDefault(): void;
}
export interface WebContentsLike {
  id: number;
  send(channel: string, ...args: unknown[]): void;
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: NavigationEvent, url: string) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: NavigationEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' | 'allow' }): void;
  isDestroyed(): boolean;
}
export interface BrowserWindowLike {
  webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  show(): void;
  maximize(): void;
  isMaximized(): boolean;
  getNormalBounds(): { x: number; y: number; width: number; height: number };
}
export interface IpcInvokeEvent {
  sender: WebContentsLike;
  senderFrame: Frame | null;
}
export interface ElectronLike {
  app: {
    whenReady(): Promise<void>;
    on(event: 'window-all-closed' | 'activate', listener: () => void): unknown;
    on(
      event: 'web-contents-created',
      listener: (event: unknown, contents: WebContentsLike) => void,
    ): unknown;
    getPath(name: 'userData' | 'documents'): string;
    quit(): void;
    name: string;
  };
  BrowserWindow: {
    new (options: Record<string, unknown>): BrowserWindowLike & PrintWindowLike;
    getAllWindows(): unknown[];
  };
  ipcMain: {
    handle(
      channel: string,
      listener: (event: IpcInvokeEvent, ...args: unknown[]) => Promise<unknown>,
    ): void;
  };
  protocol: {
    registerSchemesAsPrivileged(
      schemes: { scheme: string; privileges: Record<string, boolean> }[],
    ): void;
    handle(scheme: string, handler: (request: { url: string }) => Promise<Response>): void;
  };
  session: {
    defaultSession: {
      setPermissionRequestHandler(
        handler: (
          contents: unknown,
          permission: string,
          callback: (granted: boolean) => void,
        ) => void,
      ): void;
      setPermissionCheckHandler(handler: (contents: unknown, permission: string) => boolean): void;
    };
  };
  shell: { openExternal(url: string): Promise<void>; showItemInFolder(fullPath: string): void };
  Menu: {
    buildFromTemplate(template: MenuItem[]): unknown;
    setApplicationMenu(menu: unknown): void;
  };
  nativeTheme: { themeSource: 'system' | 'light' | 'dark' };
  screen: { getAllDisplays(): { workArea: DisplayArea }[] };
  dialog: {
    showOpenDialog(options: {
      title?: string;
      properties: string[];
    }): Promise<{ canceled: boolean; filePaths: string[] }>;
    showSaveDialog(options: {
      title?: string;
      defaultPath?: string;
      filters?: { name: string; extensions: string[] }[];
    }): Promise<{ canceled: boolean; filePath?: string }>;
  };
}

/** BrowserWindow options for the main window; the security test reads these. */
export function mainWindowOptions(
  preloadPath: string,
  state: WindowState,
): Record<string, unknown> {
  return {
    width: state.width,
    height: state.height,
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    minWidth: 960,
    minHeight: 640,
    show: false,
    title: 'Plumb',
    backgroundColor: '#1c1c1e',
    webPreferences: { ...secureWebPreferences, preload: preloadPath },
  };
}

/**
 * Serves the renderer build on plumb://app/ with the CSP, refusing anything outside it; and a
 * report's model, once, to the report page printing it.
 */
export async function serveAppRequest(
  url: string,
  root: string,
  reports?: ReportShelf,
): Promise<Response> {
  if (!isAppUrl(url)) return new Response('Not found', { status: 404 });
  const model = reports?.take(new URL(url).pathname);
  if (model) {
    return new Response(model, {
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Security-Policy': contentSecurityPolicy,
      },
    });
  }
  const file = await resolveStatic(root, new URL(url).pathname);
  if (!file) return new Response('Not found', { status: 404 });
  return new Response(await readFile(file), {
    headers: {
      'Content-Type': contentTypeOf(file),
      'Content-Security-Policy': contentSecurityPolicy,
    },
  });
}

/**
 * The IPC handler: refuses untrusted senders, validates and runs the call, returns a Reply. Each
 * window gets one call context, subscribed to the event hub, so it hears every run once.
 */
export function createIpcHandler(dispatcher: Dispatcher, hub: EventHub = eventHub) {
  const contexts = new Map<number, CallContext>();
  const contextFor = (sender: WebContentsLike): CallContext => {
    const known = contexts.get(sender.id);
    if (known) return known;
    const context: CallContext = {
      emit: (eventName, payload) => {
        if (!sender.isDestroyed()) return sender.send(ipcChannels.event, eventName, payload);
        unsubscribe();
        contexts.delete(sender.id);
      },
    };
    const unsubscribe = hub.subscribe(context);
    contexts.set(sender.id, context);
    return context;
  };
  return async (event: IpcInvokeEvent, name: unknown, input: unknown): Promise<Reply> => {
    if (!isTrustedSender(event.senderFrame)) {
      return {
        ok: false,
        error: toErrorPayload(
          new PlumbError('EPERM', 'IPC refused: the sender is not a Plumb page.'),
        ),
      };
    }
    const context = contextFor(event.sender);
    try {
      return { ok: true, value: await dispatcher.call(name, input, context) };
    } catch (error) {
      return { ok: false, error: toErrorPayload(error) };
    }
  };
}

/** Locks down every web contents the app ever creates (windows, and anything else). */
function hardenContents(contents: WebContentsLike, electron: Pick<ElectronLike, 'shell'>): void {
  const blockNavigation = (event: NavigationEvent, url: string) => {
    if (!isAppUrl(url)) event.preventDefault();
  };
  contents.on('will-navigate', blockNavigation);
  contents.on('will-redirect', blockNavigation);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const external = externalLinkTarget(url);
    if (external) void electron.shell.openExternal(external);
    return { action: 'deny' };
  });
}

/** The desktop app on `context` (built here once; by default this environment's folders). */
export function startDesktop(
  electron: ElectronLike,
  preloadPath: string,
  context: AppContext = createAppContext(),
): void {
  const { app, BrowserWindow, ipcMain, protocol, session, Menu, nativeTheme, screen } = electron;
  protocol.registerSchemesAsPrivileged([
    { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, electron));
  app.on('window-all-closed', () => app.quit());

  const stateFile = context.folders.windowState;

  const openMainWindow = () => {
    const displays = screen.getAllDisplays().map((d) => d.workArea);
    const state = loadWindowState(stateFile, displays);
    const window = new BrowserWindow(mainWindowOptions(preloadPath, state));
    if (state.maximized) window.maximize();
    window.once('ready-to-show', () => window.show());
    window.on('close', () => {
      saveWindowState(stateFile, { ...window.getNormalBounds(), maximized: window.isMaximized() });
    });
    void window.loadURL(appEntryUrl);
  };

  void app.whenReady().then(() => {
    nativeTheme.themeSource = 'system';
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) =>
      callback(false),
    );
    session.defaultSession.setPermissionCheckHandler(() => false);
    const root = rendererDir();
    const reports = new ReportShelf();
    protocol.handle(appScheme, (request) => serveAppRequest(request.url, root, reports));
    const dispatcher = createDispatcher(
      createHandlers(context, 'electron', {
        'dialog.chooseFolder': async ({ title }) => {
          const choice = await electron.dialog.showOpenDialog({
            title: title ?? 'Choose a folder',
            properties: ['openDirectory', 'createDirectory'],
          });
          return { path: choice.canceled ? null : (choice.filePaths[0] ?? null) };
        },
        'dialog.revealPath': async ({ path: file }) => {
          electron.shell.showItemInFolder(file);
          return {};
        },
        'report.savePdf': savePdfHandler(electron, reports, (request, paper) =>
          prepareReport(request, paper, reportSources(context)),
        ),
      }),
    );
    const handleCall = createIpcHandler(dispatcher);
    ipcMain.handle(ipcChannels.call, (event, name, input) => handleCall(event, name, input));
    Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(process.platform, app.name)));
    openMainWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) openMainWindow();
    });
  });
}
