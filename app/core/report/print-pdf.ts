/**
 * Prints a report to PDF without Electron: a system Chrome or Chromium, driven by playwright-core,
 * opens the built report page on a private origin that exists only inside this browser (every
 * request is answered here: the renderer's files and the model; nothing reaches the network),
 * waits for the page's ready flag, and prints with the shared page setup.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Page, Route } from 'playwright-core';
import { PlumbError } from '../../contract/errors.js';
import type { ReportModel } from '../../contract/report.js';
import { hostOs } from '../os/index.js';
import { rendererDir } from '../paths.js';
import { contentSecurityPolicy } from '../security/csp.js';
import { contentTypeOf, resolveStatic } from '../static-files.js';
import { findBrowser, systemBrowserSearch } from './browser.js';
import {
  contentWidthPx,
  footerTemplate,
  headerTemplate,
  marginsMm,
  modelTokenOf,
  reportPagePath,
} from './page-setup.js';

/** Reserved for documentation and never resolvable (RFC 2606): only our route answers it. */
const privateOrigin = 'http://plumb-report.invalid';

export interface PrintOptions {
  /** The browser's program file; found automatically when absent. */
  browserPath?: string;
  /** The built renderer (dist/renderer); found automatically when absent. */
  rendererRoot?: string;
  /** Milliseconds to wait for the page to draw. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Chromium refuses to run as root with its sandbox (CI and containers run as root). */
function launchArgs(): string[] {
  const args = [
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-extensions',
  ];
  if (hostOs.chromiumNeedsNoSandbox()) args.push('--no-sandbox');
  return args;
}

async function answer(
  route: Route,
  root: string,
  token: string,
  model: string,
  onMissing: (urlPath: string) => void,
): Promise<void> {
  const url = new URL(route.request().url());
  if (url.origin !== privateOrigin) return route.abort('blockedbyclient');
  if (modelTokenOf(url.pathname) === token) {
    return route.fulfill({
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: model,
    });
  }
  const file = await resolveStatic(root, url.pathname);
  if (!file) {
    onMissing(url.pathname);
    return route.fulfill({ status: 404, body: 'Not found' });
  }
  return route.fulfill({
    status: 200,
    headers: {
      'Content-Type': contentTypeOf(file),
      'Content-Security-Policy': contentSecurityPolicy,
    },
    body: await readFile(file),
  });
}

/**
 * Resolves once the page set its ready flag or its error. A selector, not a predicate: the page's
 * CSP forbids the string evaluation a predicate needs.
 */
async function waitUntilReady(page: Page, timeout: number): Promise<void> {
  await page.waitForSelector('body[data-ready="true"], body[data-report-error]', {
    state: 'attached',
    timeout,
  });
}

/** The report as PDF bytes. Throws ENOBROWSER, EREPORT (the page failed) or ECANCELED. */
export async function printReportPdf(
  model: ReportModel,
  options: PrintOptions = {},
): Promise<Buffer> {
  const executablePath = findBrowser(options.browserPath, systemBrowserSearch());
  const root = options.rendererRoot ?? rendererDir();
  const token = randomBytes(12).toString('base64url');
  const modelJson = JSON.stringify(model);
  const timeout = options.timeoutMs ?? 60_000;
  options.signal?.throwIfAborted();

  // Loaded only when printing: every other command starts without it.
  const { chromium } = await import('playwright-core');
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath, headless: true, args: launchArgs() });
  } catch (error) {
    throw new PlumbError(
      'ENOBROWSER',
      `Could not start ${executablePath} to print the PDF: ${(error as Error).message.split('\n')[0]}`,
      { cause: error },
    );
  }
  const onAbort = () => void browser.close();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const context = await browser.newContext({
      viewport: { width: contentWidthPx(model.paper), height: 1000 },
      colorScheme: 'light',
      reducedMotion: 'reduce',
      serviceWorkers: 'block',
    });
    // A file missing from the build (an old or half-built dist/) fails at once, not at the timeout.
    let reportMissing!: (urlPath: string) => void;
    const missing = new Promise<never>((_resolve, reject) => {
      reportMissing = (urlPath) =>
        reject(
          new PlumbError(
            'EREPORT',
            `The report page needs ${urlPath}, which is not in the renderer build in ${root}; run \`npm run build\`.`,
          ),
        );
    });
    missing.catch(() => undefined);
    await context.route('**/*', (route) =>
      answer(route, root, token, modelJson, (urlPath) => {
        if (urlPath !== '/favicon.ico') reportMissing(urlPath);
      }),
    );
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const response = await page.goto(`${privateOrigin}${reportPagePath(token)}`, { timeout });
    if (!response?.ok()) {
      throw new PlumbError(
        'EREPORT',
        `The report page is missing from the renderer build in ${root}; run \`npm run build\`.`,
      );
    }
    try {
      await Promise.race([missing, waitUntilReady(page, timeout)]);
    } catch (error) {
      if (error instanceof PlumbError) throw error;
      throw new PlumbError(
        'EREPORT',
        `The report page did not finish drawing in ${timeout / 1000} s${pageErrors.length ? `: ${pageErrors[0]}` : ''}.`,
        { cause: error },
      );
    }
    const failure = await page.getAttribute('body', 'data-report-error');
    if (failure) throw new PlumbError('EREPORT', `The report page failed: ${failure}`);
    const pdf = await page.pdf({
      format: model.paper === 'a4' ? 'A4' : 'Letter',
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: headerTemplate(model),
      footerTemplate: footerTemplate(model),
      margin: {
        top: `${marginsMm.top}mm`,
        bottom: `${marginsMm.bottom}mm`,
        left: `${marginsMm.left}mm`,
        right: `${marginsMm.right}mm`,
      },
    });
    return pdf;
  } catch (error) {
    if (options.signal?.aborted)
      throw new PlumbError('ECANCELED', 'Printing the report was cancelled.', { cause: error });
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await browser.close().catch(() => undefined);
  }
}
