/**
 * Web mode end to end: `plumb serve` in real Chromium, and everything it must refuse.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import WebSocket from 'ws';
import { chromiumMissingReason, launchChromium } from '../helpers/chromium.js';
import { repoRoot, startServe } from '../helpers/cli.js';
import { cookieOf, openContractSocket, rawGet as rawGetFrom, signIn } from '../helpers/web.js';

let server: Awaited<ReturnType<typeof startServe>>;
let browser: Browser | undefined;
let folder: string;
const artifacts = path.join(repoRoot, 'test-artifacts');
const noChromium = chromiumMissingReason();
if (noChromium) console.log(`# skipping browser tests: ${noChromium}`);

before(async () => {
  server = await startServe();
  folder = mkdtempSync(path.join(os.tmpdir(), 'plumb-serve-'));
  mkdirSync(artifacts, { recursive: true });
  if (!noChromium) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  const code = await server.stop();
  rmSync(folder, { recursive: true, force: true });
  assert.equal(code, 0, 'plumb serve exits cleanly on SIGTERM');
});

function rawGet(urlPath: string, headers: Record<string, string> = {}) {
  return rawGetFrom(server, urlPath, headers);
}

function wsOutcome(query: string, headers: Record<string, string>): Promise<'open' | number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://${server.url.host}/ws${query}`, { headers });
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('error', () => resolve(-1));
  });
}

test('listens on 127.0.0.1 only, and prints a sign-in link with a long random code', () => {
  assert.equal(server.url.hostname, '127.0.0.1');
  assert.ok((server.url.searchParams.get('code') ?? '').length >= 24);
  assert.equal([...server.url.searchParams.keys()].join(), 'code');
});

test('a sign-in link works once: it sets the session cookie and sends the browser to a clean URL', async () => {
  const link = await server.nextUrl();
  const first = await rawGet(`/?code=${link.searchParams.get('code')}`);
  assert.equal(first.status, 303);
  assert.equal(first.headers.location, '/');
  const setCookie = first.headers['set-cookie']?.[0] ?? '';
  assert.match(setCookie, /^plumb_session=[\w-]{24,}; HttpOnly; SameSite=Strict; Path=\/$/);
  assert.doesNotMatch(setCookie, /Max-Age|Expires/, 'a session cookie, gone with the browser');
  const cookie = cookieOf(first)!;
  assert.equal((await rawGet('/', { cookie })).status, 200);

  const again = await rawGet(`/?code=${link.searchParams.get('code')}`);
  assert.equal(again.status, 403, 'a used link is worthless');
  assert.match(again.body, /used already or has expired/);
  assert.equal(cookieOf(again), undefined);
  // serve printed the next link for another browser, and it is a different code.
  const next = await server.nextUrl();
  assert.notEqual(next.searchParams.get('code'), link.searchParams.get('code'));
  assert.equal((await rawGet(`${next.pathname}${next.search}`)).status, 303);
  assert.match(server.output(), /A browser signed in\. To sign in another, open http/);
});

test('HTTP without a session, with a made-up one, or with a foreign Host or Origin is refused', async () => {
  const cookie = await signIn(server);
  assert.equal((await rawGet('/', { cookie })).status, 200);
  assert.equal((await rawGet('/')).status, 403);
  assert.equal((await rawGet('/', { cookie: 'plumb_session=not-a-session' })).status, 403);
  assert.equal((await rawGet('/?code=not-a-code')).status, 403);
  assert.equal((await rawGet('/', { cookie, host: 'evil.example' })).status, 403);
  assert.equal((await rawGet('/', { cookie, origin: 'http://evil.example' })).status, 403);
});

test('static files are served only from the renderer build', async () => {
  const cookie = await signIn(server);
  for (const attempt of [
    '/../package.json',
    '/%2e%2e/package.json',
    '/..%2f..%2fpackage.json',
    '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  ]) {
    const response = await rawGet(attempt, { cookie });
    assert.notEqual(response.status, 200, attempt);
    assert.doesNotMatch(response.body, /"name": "plumb"|root:/, attempt);
  }
});

test('the WebSocket needs a session and our Origin; a sign-in code is not a session', async () => {
  const cookie = await signIn(server);
  const origin = `http://${server.url.host}`;
  assert.equal(await wsOutcome('', { origin, cookie }), 'open');
  assert.equal(await wsOutcome('', { origin }), 403);
  assert.equal(await wsOutcome('', { origin, cookie: 'plumb_session=wrong' }), 403);
  const unused = await server.nextUrl();
  assert.equal(await wsOutcome(unused.search, { origin }), 403);
  assert.equal((await rawGet(`/${unused.search}`)).status, 303, 'and it was not spent there');
  assert.equal(await wsOutcome('', { origin: 'http://evil.example', cookie }), 403);
  assert.equal(await wsOutcome('', { cookie }), 403);
});

test('a contract call round-trips over the WebSocket, and bad input comes back as EINVAL', async () => {
  const socket = await openContractSocket(server, await signIn(server));
  await socket.call('session.choosePath', { path: folder });
  const [info, bad, unknown] = await Promise.all([
    socket.call('volume.info', { path: folder }),
    socket.call('volume.info', { path: 12 }),
    socket.call('no.such.op', {}),
  ]);
  socket.close();
  assert.equal(info.ok, true);
  assert.equal((info.value as { path: string }).path, folder);
  assert.equal(bad.error!.code, 'EINVAL');
  assert.equal(unknown.error!.code, 'EUNKNOWNOP');
});

test(
  'the first screen loads in Chromium without console errors and answers info for a folder',
  { skip: noChromium },
  async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
      await page.emulateMedia({ colorScheme });
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning')
          problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto((await server.nextUrl()).href);
      assert.equal(new URL(page.url()).search, '', 'the code is gone from the address bar');
      await page.getByRole('heading', { name: 'Your disks' }).waitFor();
      await page.getByRole('list', { name: 'Your disks' }).getByRole('listitem').first().waitFor();
      await page.getByLabel('Folder path').fill(folder);
      await page.keyboard.press('Enter');
      const card = page.getByRole('article', { name: `Volume of ${folder}` });
      await card.waitFor();
      const fsType =
        (await card.locator('.fact', { hasText: 'File system' }).locator('dd').textContent()) ?? '';
      assert.match(fsType, /^(ext4|xfs|btrfs|tmpfs|overlay|apfs|ntfs|\w+)$/);
      assert.notEqual(fsType, 'Unknown');
      await page.screenshot({
        path: path.join(artifacts, `first-screen-${colorScheme}.png`),
        fullPage: true,
      });

      await page.getByLabel('Folder path').fill(path.join(folder, 'missing'));
      await page.getByRole('button', { name: 'Inspect' }).click();
      await page.getByRole('alert').filter({ hasText: 'No such folder' }).waitFor();
      assert.deepEqual(problems, []);
      await page.close();
    }
  },
);

test(
  'the page keeps working after a reload: the session cookie covers assets and the socket',
  { skip: noChromium },
  async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto((await server.nextUrl()).href);
    await page.reload();
    await page.getByLabel('Folder path').fill(folder);
    await page.getByRole('button', { name: 'Inspect' }).click();
    await page.getByRole('article', { name: `Volume of ${folder}` }).waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test('a page on another origin cannot use the server', { skip: noChromium }, async () => {
  const page = await browser!.newPage();
  const evilDir = mkdtempSync(path.join(os.tmpdir(), 'plumb-evil-'));
  writeFileSync(path.join(evilDir, 'evil.html'), '<!doctype html><title>evil</title>');
  try {
    await page.goto(`file://${path.join(evilDir, 'evil.html')}`);
    const outcome = await page.evaluate(async (host) => {
      return new Promise<string>((resolve) => {
        const socket = new WebSocket(`ws://${host}/ws`);
        socket.onopen = () => resolve('open');
        socket.onerror = () => resolve('refused');
      });
    }, server.url.host);
    assert.equal(outcome, 'refused');
  } finally {
    rmSync(evilDir, { recursive: true, force: true });
    await page.close();
  }
});
