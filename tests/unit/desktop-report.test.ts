/**
 * Reports to PDF in the desktop app, through the real main-process code and a recording fake of
 * Electron (as in desktop-security.test.ts): the renderer asks over IPC, the save dialog answers,
 * a hidden window loads the report page, which fetches its model over plumb://, draws, and is
 * printed with printToPDF; the PDF lands where the user chose.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { ResultDocument } from '../../app/contract/bench-result.js';
import { planSchemaVersion } from '../../app/contract/plan.js';
import type { Reply } from '../../app/contract/index.js';
import type { ReportModel } from '../../app/contract/report.js';
import type { AppContext } from '../../app/core/context.js';
import { runBenchmark } from '../../app/core/bench/runner.js';
import { contentWidthPx } from '../../app/core/report/page-setup.js';
import { startDesktop, type ElectronLike, type IpcInvokeEvent } from '../../app/desktop/app.js';
import { printInHiddenWindow, ReportShelf } from '../../app/desktop/print-report.js';
import { FakeDrive } from '../helpers/fake-bench-io.js';
import { testContext } from '../helpers/context.js';

/** What the fake report page does once loaded: fetch its model, then say it drew (or failed). */
type PageBehaviour = (model: ReportModel) => { error?: string };

interface Recorded {
  windows: {
    options: Record<string, unknown>;
    url?: string;
    model?: ReportModel;
    pdfOptions?: Record<string, unknown>;
    destroyed: boolean;
  }[];
  saveDialogs: { defaultPath?: string }[];
  ipc?: (event: IpcInvokeEvent, ...args: unknown[]) => Promise<unknown>;
  protocol?: (request: { url: string }) => Promise<Response>;
}

function fakeElectron(
  userData: string,
  answers: { savePath: string | null; page: PageBehaviour },
): { electron: ElectronLike; recorded: Recorded; ready: () => void } {
  const recorded: Recorded = { windows: [], saveDialogs: [] };
  let resolveReady!: () => void;
  const readyPromise = new Promise<void>((resolve) => (resolveReady = resolve));
  class FakeWindow {
    readonly record: Recorded['windows'][number];
    private drawn: { error?: string } | null = null;
    webContents = {
      id: 7,
      send: () => undefined,
      on: () => undefined,
      setWindowOpenHandler: () => undefined,
      isDestroyed: () => this.record.destroyed,
      executeJavaScript: async () =>
        JSON.stringify({
          ready: this.drawn !== null && !this.drawn.error,
          error: this.drawn?.error ?? null,
        }),
      printToPDF: async (options: Record<string, unknown>) => {
        this.record.pdfOptions = options;
        return Buffer.from(`%PDF-1.4 fake report of ${this.record.model?.subject}\n`);
      },
    };
    constructor(options: Record<string, unknown>) {
      this.record = { options, destroyed: false };
      recorded.windows.push(this.record);
    }
    static getAllWindows() {
      return recorded.windows;
    }
    async loadURL(url: string) {
      this.record.url = url;
      if (!url.includes('/report.html')) return; // the main window: nothing to emulate
      // The page: fetch the model named in the URL from the app's own scheme, then draw.
      const token = new URL(url).searchParams.get('model');
      const response = await recorded.protocol!({ url: `plumb://app/report-models/${token}.json` });
      assert.equal(response.status, 200);
      this.record.model = (await response.json()) as ReportModel;
      this.drawn = answers.page(this.record.model);
    }
    once() {
      return this;
    }
    on() {
      return this;
    }
    show() {}
    maximize() {}
    isMaximized() {
      return false;
    }
    getNormalBounds() {
      return { x: 0, y: 0, width: 1280, height: 820 };
    }
    destroy() {
      this.record.destroyed = true;
    }
  }
  const electron: ElectronLike = {
    app: {
      whenReady: () => readyPromise,
      on: () => undefined,
      getPath: (name: string) => (name === 'documents' ? '/home/someone/Documents' : userData),
      quit: () => undefined,
      name: 'Plumb',
    } as ElectronLike['app'],
    BrowserWindow: FakeWindow as unknown as ElectronLike['BrowserWindow'],
    ipcMain: { handle: (_channel, listener) => void (recorded.ipc = listener) },
    protocol: {
      registerSchemesAsPrivileged: () => undefined,
      handle: (_scheme, handler) => void (recorded.protocol = handler),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: () => undefined,
        setPermissionCheckHandler: () => undefined,
      },
    },
    shell: { openExternal: async () => undefined, showItemInFolder: () => undefined },
    Menu: { buildFromTemplate: (template) => template, setApplicationMenu: () => undefined },
    nativeTheme: { themeSource: 'system' },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    dialog: {
      showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
      showSaveDialog: async (options) => {
        recorded.saveDialogs.push(options);
        return answers.savePath === null
          ? { canceled: true }
          : { canceled: false, filePath: answers.savePath };
      },
    },
  };
  return { electron, recorded, ready: resolveReady };
}

const trustedFrame = { url: 'plumb://app/index.html', parent: null };
let dataDir: string;
let app: AppContext;
let outDir: string;
let result: ResultDocument;

before(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-desktop-report-'));
  outDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-desktop-out-'));
  app = testContext(dataDir);
  const target = mkdtempSync(path.join(os.tmpdir(), 'plumb-desktop-target-'));
  result = await runBenchmark(
    {
      target,
      plan: {
        schema: planSchemaVersion,
        name: 'tiny',
        kind: 'files',
        sizes: [1e6, 4e6, 16e6],
        repeats: 1,
        shuffle: false,
        readBack: true,
      },
      appVersion: 'test',
      signal: new AbortController().signal,
      store: app.results,
      reserve: { fraction: 0.1, minBytes: 0 },
    },
    new FakeDrive({ fastRate: 1e9, readRate: 2e9 }),
  );
  rmSync(target, { recursive: true, force: true });
});
after(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(outDir, { recursive: true, force: true });
});

async function started(answers: { savePath: string | null; page: PageBehaviour }) {
  const fake = fakeElectron(dataDir, answers);
  startDesktop(fake.electron, '/app/dist/desktop/preload.cjs', app);
  fake.ready();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const call = (name: string, input: unknown) =>
    fake.recorded.ipc!(
      { sender: {} as never, senderFrame: trustedFrame },
      name,
      input,
    ) as Promise<Reply>;
  return { recorded: fake.recorded, call };
}

describe('desktop: Export PDF', () => {
  let out: string;
  beforeEach(() => {
    out = path.join(outDir, `report-${Math.random().toString(36).slice(2)}.pdf`);
  });

  it('asks where to save, prints the report page in a hidden window, and writes the PDF there', async () => {
    const { recorded, call } = await started({ savePath: out, page: () => ({}) });
    const reply = await call('report.savePdf', {
      request: { kind: 'result', id: result.id },
      paper: 'letter',
    });
    assert.deepEqual(reply, { ok: true, value: { path: out } });
    assert.equal(
      recorded.saveDialogs[0]!.defaultPath,
      `/home/someone/Documents/plumb-${result.id}.pdf`,
    );

    const hidden = recorded.windows.find((w) => w.url?.includes('/report.html'));
    assert.ok(hidden, 'a hidden window printed');
    assert.equal(hidden.options.show, false);
    const prefs = hidden.options.webPreferences as Record<string, unknown>;
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.equal(prefs.preload, undefined, 'the report page gets no bridge to Plumb');
    assert.equal(hidden.options.width, contentWidthPx('letter'));
    assert.match(hidden.url!, /^plumb:\/\/app\/report\.html\?model=[\w-]+$/);
    assert.equal(hidden.model?.kind, 'result');
    assert.equal(hidden.model?.kind === 'result' && hidden.model.result.id, result.id);
    assert.equal(hidden.pdfOptions!.pageSize, 'Letter');
    assert.equal(hidden.pdfOptions!.displayHeaderFooter, true);
    assert.match(
      String(hidden.pdfOptions!.headerTemplate),
      new RegExp(hidden.model!.subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    );
    assert.match(String(hidden.pdfOptions!.footerTemplate), /class="pageNumber"/);
    assert.equal(hidden.destroyed, true, 'the hidden window is closed');
    assert.match(readFileSync(out, 'utf8'), /^%PDF-1\.4 fake report of /);

    // The model was handed over once: the page's URL no longer answers.
    const token = new URL(hidden.url!).searchParams.get('model');
    const again = await recorded.protocol!({ url: `plumb://app/report-models/${token}.json` });
    assert.equal(again.status, 404);
  });

  it('does nothing more when the user cancels the save dialog', async () => {
    const { recorded, call } = await started({ savePath: null, page: () => ({}) });
    const reply = await call('report.savePdf', { request: { kind: 'result', id: result.id } });
    assert.deepEqual(reply, { ok: true, value: { path: null } });
    assert.equal(recorded.windows.filter((w) => w.url?.includes('/report.html')).length, 0);
  });

  it('reports a page that cannot draw, closes the window and writes no file', async () => {
    const { recorded, call } = await started({
      savePath: out,
      page: () => ({ error: 'the chart had no canvas' }),
    });
    const reply = await call('report.savePdf', { request: { kind: 'result', id: result.id } });
    assert.equal(reply.ok, false);
    if (!reply.ok) {
      assert.equal(reply.error.code, 'EREPORT');
      assert.match(reply.error.message, /the chart had no canvas/);
    }
    assert.ok(
      recorded.windows.filter((w) => w.url?.includes('report.html')).every((w) => w.destroyed),
    );
    assert.equal(existsSync(out), false);
    assert.deepEqual(
      readdirSync(outDir).filter((name) => name.startsWith(path.basename(out))),
      [],
    );
  });

  it('gives up on a page that never says it drew', async () => {
    const shelf = new ReportShelf();
    let destroyed = false;
    class NeverReady {
      webContents = {
        executeJavaScript: async () => JSON.stringify({ ready: false, error: null }),
        printToPDF: async () => new Uint8Array(),
      };
      async loadURL() {}
      destroy() {
        destroyed = true;
      }
    }
    const model: ReportModel = {
      kind: 'result',
      title: 't',
      subject: 's',
      paper: 'a4',
      generatedAt: new Date().toISOString(),
      appVersion: 'test',
      result,
    };
    await assert.rejects(
      printInHiddenWindow({ BrowserWindow: NeverReady }, shelf, model, {
        timeoutMs: 50,
        pollMs: 10,
      }),
      /did not finish drawing/,
    );
    assert.equal(destroyed, true);
  });
});
