/**
 * Web mode end to end: `plumb serve` in real Chromium, and everything it must refuse.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import WebSocket from 'ws';
import { chromiumMissingReason, launchChromium } from '../helpers/chromium.js';
import { repoRoot, startServe } from '../helpers/cli.js';

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

/** A raw HTTP GET, so Host and Origin can be forged the way a hostile page or rebinding would. */
function rawGet(
  urlPath: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        host: '127.0.0.1',
        port: Number(server.url.port),
        path: urlPath,
        headers: { host: server.url.host, ...headers },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
  });
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

test('listens on 127.0.0.1 only, with a long random token in the URL', () => {
  assert.equal(server.url.hostname, '127.0.0.1');
  assert.ok((server.url.searchParams.get('token') ?? '').length >= 24);
});

test('HTTP without the token, with a wrong one, or with a foreign Host or Origin is refused', async () => {
  const token = server.url.searchParams.get('token')!;
  assert.equal((await rawGet(`/?token=${token}`)).status, 200);
  assert.equal((await rawGet('/')).status, 403);
  assert.equal((await rawGet('/?token=not-the-token')).status, 403);
  assert.equal((await rawGet(`/?token=${token}`, { host: 'evil.example' })).status, 403);
  assert.equal((await rawGet(`/?token=${token}`, { origin: 'http://evil.example' })).status, 403);
});

test('static files are served only from the renderer build', async () => {
  const token = server.url.searchParams.get('token')!;
  for (const attempt of [
    '/../package.json',
    '/%2e%2e/package.json',
    '/..%2f..%2fpackage.json',
    '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  ]) {
    const response = await rawGet(`${attempt}?token=${token}`);
    assert.notEqual(response.status, 200, attempt);
    assert.doesNotMatch(response.body, /"name": "plumb"|root:/, attempt);
  }
});

test('the WebSocket needs the token and our Origin', async () => {
  const token = server.url.searchParams.get('token')!;
  const origin = `http://${server.url.host}`;
  assert.equal(await wsOutcome(`?token=${token}`, { origin }), 'open');
  assert.equal(await wsOutcome('', { origin }), 403);
  assert.equal(await wsOutcome('?token=wrong', { origin }), 403);
  assert.equal(await wsOutcome(`?token=${token}`, { origin: 'http://evil.example' }), 403);
  assert.equal(await wsOutcome(`?token=${token}`, {}), 403);
});

test('a contract call round-trips over the WebSocket, and bad input comes back as EINVAL', async () => {
  const token = server.url.searchParams.get('token')!;
  const socket = new WebSocket(`ws://${server.url.host}/ws?token=${token}`, {
    origin: `http://${server.url.host}`,
  });
  await new Promise((resolve) => socket.once('open', resolve));
  const replies: Record<
    number,
    { ok: boolean; value?: { path: string }; error?: { code: string } }
  > = {};
  const done = new Promise<void>((resolve) =>
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id: number; ok: boolean };
      replies[message.id] = message;
      if (Object.keys(replies).length === 3) resolve();
    }),
  );
  socket.send(
    JSON.stringify({ type: 'call', id: 1, name: 'volume.info', input: { path: folder } }),
  );
  socket.send(JSON.stringify({ type: 'call', id: 2, name: 'volume.info', input: { path: 12 } }));
  socket.send(JSON.stringify({ type: 'call', id: 3, name: 'no.such.op', input: {} }));
  await done;
  socket.close();
  assert.equal(replies[1]!.ok, true);
  assert.equal(replies[1]!.value!.path, folder);
  assert.equal(replies[2]!.error!.code, 'EINVAL');
  assert.equal(replies[3]!.error!.code, 'EUNKNOWNOP');
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
      await page.goto(server.url.href);
      await page.getByRole('heading', { name: 'Where should Plumb look?' }).waitFor();
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
  'the page keeps working after a reload: the token cookie covers assets and the socket',
  { skip: noChromium },
  async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server.url.href);
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
