/**
 * Reports to PDF in the desktop app: the report page opens in a hidden window on plumb://app/,
 * fetches its model (handed over once, by a random token), draws, sets its ready flag, and
 * Electron's printToPDF prints it with the same page setup as the CLI. The file goes where the
 * user chooses in a save dialog, written atomically.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { PlumbError } from '../contract/errors.js';
import type { Paper, ReportModel, ReportRequest } from '../contract/report.js';
import type { Handlers } from '../core/dispatch.js';
import { writeOutput } from '../core/output-file.js';
import { reportFileName } from '../core/report/model.js';
import {
  contentWidthPx,
  footerTemplate,
  headerTemplate,
  marginsMm,
  modelTokenOf,
  reportPagePath,
} from '../core/report/page-setup.js';
import { appOrigin, secureWebPreferences } from './security.js';

export interface PrintContentsLike {
  executeJavaScript(code: string): Promise<unknown>;
  printToPDF(options: Record<string, unknown>): Promise<Uint8Array>;
}

export interface PrintWindowLike {
  webContents: PrintContentsLike;
  loadURL(url: string): Promise<void>;
  destroy(): void;
}

export interface ReportPrinterElectron {
  BrowserWindow: new (options: Record<string, unknown>) => PrintWindowLike;
  dialog: {
    showSaveDialog(options: {
      title?: string;
      defaultPath?: string;
      filters?: { name: string; extensions: string[] }[];
    }): Promise<{ canceled: boolean; filePath?: string }>;
  };
  app: { getPath(name: 'documents'): string };
}

/** Models waiting for their page, by token; each is handed out once. */
export class ReportShelf {
  private readonly models = new Map<string, string>();

  put(model: ReportModel): string {
    const token = randomBytes(12).toString('base64url');
    this.models.set(token, JSON.stringify(model));
    return token;
  }

  /** The model JSON for a `/report-models/TOKEN.json` path, once; null for anything else. */
  take(urlPath: string): string | null {
    const token = modelTokenOf(urlPath);
    if (!token) return null;
    const json = this.models.get(token) ?? null;
    this.models.delete(token);
    return json;
  }

  drop(token: string): void {
    this.models.delete(token);
  }
}

const inch = 25.4;
const readyProbe =
  "JSON.stringify({ ready: document.body.dataset.ready === 'true', error: document.body.dataset.reportError ?? null })";

/** printToPDF options for a model: the CLI's page setup in Electron's units (inches). */
function electronPdfOptions(model: ReportModel): Record<string, unknown> {
  return {
    pageSize: model.paper === 'a4' ? 'A4' : 'Letter',
    printBackground: true,
    displayHeaderFooter: true,
    headerTemplate: headerTemplate(model),
    footerTemplate: footerTemplate(model),
    margins: {
      top: marginsMm.top / inch,
      bottom: marginsMm.bottom / inch,
      left: marginsMm.left / inch,
      right: marginsMm.right / inch,
    },
    preferCSSPageSize: false,
  };
}

async function waitUntilDrawn(
  contents: PrintContentsLike,
  timeoutMs: number,
  pollMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = JSON.parse(String(await contents.executeJavaScript(readyProbe))) as {
      ready: boolean;
      error: string | null;
    };
    if (state.error) throw new PlumbError('EREPORT', `The report page failed: ${state.error}`);
    if (state.ready) return;
    if (Date.now() > deadline)
      throw new PlumbError(
        'EREPORT',
        `The report page did not finish drawing in ${timeoutMs / 1000} s.`,
      );
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The report printed in a hidden window; the window is gone afterwards, whatever happened. */
export async function printInHiddenWindow(
  electron: Pick<ReportPrinterElectron, 'BrowserWindow'>,
  shelf: ReportShelf,
  model: ReportModel,
  options: { timeoutMs?: number; pollMs?: number } = {},
): Promise<Buffer> {
  const token = shelf.put(model);
  const window = new electron.BrowserWindow({
    show: false,
    width: contentWidthPx(model.paper),
    height: 1000,
    useContentSize: true,
    // Hidden windows get no animation frames when throttled; the page waits for two.
    webPreferences: { ...secureWebPreferences, backgroundThrottling: false },
  });
  try {
    await window.loadURL(`${appOrigin}${reportPagePath(token)}`);
    await waitUntilDrawn(window.webContents, options.timeoutMs ?? 60_000, options.pollMs ?? 100);
    return Buffer.from(await window.webContents.printToPDF(electronPdfOptions(model)));
  } finally {
    shelf.drop(token);
    window.destroy();
  }
}

/** The desktop's `report.savePdf`: prepare, ask where, print, write (a file atomically). */
export function savePdfHandler(
  electron: ReportPrinterElectron,
  shelf: ReportShelf,
  prepare: (request: ReportRequest, paper: Paper) => Promise<ReportModel>,
): Handlers['report.savePdf'] {
  return async ({ request, paper }) => {
    const model = await prepare(request, paper);
    const choice = await electron.dialog.showSaveDialog({
      title: 'Save the report as PDF',
      defaultPath: path.join(electron.app.getPath('documents'), reportFileName(model)),
      filters: [{ name: 'PDF', extensions: ['pdf'] }],
    });
    if (choice.canceled || !choice.filePath) return { path: null };
    const pdf = await printInHiddenWindow(electron, shelf, model);
    // A path chosen in the dialog may be a link or a FIFO: written as what it is, as the CLI does.
    await writeOutput(choice.filePath, pdf, { stdout: process.stdout });
    return { path: choice.filePath };
  };
}
