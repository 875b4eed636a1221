/**
 * `plumb serve` against a hostile local client: malformed upgrade requests and WebSocket frames
 * (raw TCP to 127.0.0.1 only) must never stop it, and a socket that holds a session must still
 * not be a key to every file (see app/core/user-choices.ts).
 */
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { newSeed, seededRandom } from '../../app/core/bench/seeded-random.js';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import { mountTmpfs, tmpfsSkipReason } from '../helpers/loopfs.js';
import { openContractSocket, rawGet, signIn, type ContractSocket } from '../helpers/web.js';

let server: ServeProcess;
let scratch: string;

before(async () => {
  server = await startServe();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'plumb-hardening-'));
});
after(async () => {
  const code = await server.stop();
  rmSync(scratch, { recursive: true, force: true });
  assert.equal(code, 0, 'plumb serve exits cleanly on SIGTERM');
});

/** Writes `bytes` on a fresh TCP connection, then waits for the server to close it (or 1 s). */
function sendRaw(bytes: Buffer, then?: (socket: net.Socket, head: string) => Buffer | null) {
  return new Promise<string>((resolve) => {
    const socket = net.connect(Number(server.url.port), '127.0.0.1');
    let received = '';
    let followed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(finish, 1000);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (then && !followed && received.includes('\r\n\r\n')) {
        followed = true;
        const more = then(socket, received);
        if (more) socket.write(more);
      }
    });
    socket.on('error', finish);
    socket.on('close', finish);
  });
}

/** Resolves when the server still answers HTTP, rejects when it is gone. */
async function stillServing(): Promise<void> {
  assert.equal(server.exitCode(), undefined, `plumb serve exited: ${server.output()}`);
  const response = await rawGet(server, '/');
  assert.equal(response.status, 403, 'a request without a session is answered (refused)');
}

const wsKey = 'dGhlIHNhbXBsZSBub25jZQ==';

function upgradeRequest(target: string, headers: Record<string, string>): Buffer {
  const lines = [`GET ${target} HTTP/1.1`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

function goodUpgradeHeaders(cookie: string): Record<string, string> {
  return {
    Host: server.url.host,
    Origin: `http://${server.url.host}`,
    Cookie: cookie,
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': wsKey,
    'Sec-WebSocket-Version': '13',
  };
}

interface FrameOptions {
  fin?: boolean;
  rsv?: number;
  opcode: number;
  payload: Buffer;
  masked?: boolean;
  /** A declared length other than the payload's. */
  declaredLength?: bigint;
}

/** One WebSocket frame as RFC 6455 lays it out, with every field open to abuse. */
function frame({
  fin = true,
  rsv = 0,
  opcode,
  payload,
  masked = true,
  declaredLength,
}: FrameOptions): Buffer {
  const length = declaredLength ?? BigInt(payload.length);
  const head = [((fin ? 0x80 : 0) | ((rsv & 7) << 4) | (opcode & 0xf)) & 0xff];
  const maskBit = masked ? 0x80 : 0;
  let extended = Buffer.alloc(0);
  if (length < 126n) head.push(maskBit | Number(length));
  else if (length < 65536n) {
    head.push(maskBit | 126);
    extended = Buffer.alloc(2);
    extended.writeUInt16BE(Number(length));
  } else {
    head.push(maskBit | 127);
    extended = Buffer.alloc(8);
    extended.writeBigUInt64BE(length);
  }
  const mask = masked ? Buffer.from([0x12, 0x34, 0x56, 0x78]) : Buffer.alloc(0);
  const body = Buffer.from(payload);
  if (masked) for (let i = 0; i < body.length; i++) body[i]! ^= mask[i % 4]!;
  return Buffer.concat([Buffer.from(head), extended, mask, body]);
}

function closePayload(code: number, reason = ''): Buffer {
  const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
  payload.writeUInt16BE(code & 0xffff);
  payload.write(reason, 2);
  return payload;
}

test('an upgrade request whose target is not a URL is refused, and the server goes on', async () => {
  const cookie = await signIn(server);
  for (const target of ['http://[::1', 'http://[', '//[::1', 'http://a b@[/ws']) {
    for (const headers of [
      {
        Host: server.url.host,
        Upgrade: 'websocket',
        Connection: 'Upgrade',
        'Sec-WebSocket-Key': wsKey,
        'Sec-WebSocket-Version': '13',
      },
      goodUpgradeHeaders(cookie),
    ]) {
      await sendRaw(upgradeRequest(target, headers));
      await stillServing();
    }
  }
});

const nastyTargets = [
  'http://[::1',
  'http://[',
  '//[',
  '/ws',
  '/ws?code=x',
  '*',
  'http://127.0.0.1/ws',
  '/ws/../ws',
  '/%ff%fe',
  '/ws#frag',
  `/${'a'.repeat(9000)}`,
  '',
  'http://:99999/',
  '/\u00ff\u00fe',
];

/** A malformed or hostile upgrade request, drawn at random. */
function randomUpgrade(random: () => number, cookie: string): Buffer {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const headers: Record<string, string> = { ...goodUpgradeHeaders(cookie) };
  const mutations: (() => void)[] = [
    () => delete headers['Sec-WebSocket-Key'],
    () => (headers['Sec-WebSocket-Key'] = pick(['', 'short', '!!!!', 'a'.repeat(500)])),
    () => (headers['Sec-WebSocket-Version'] = pick(['', '8', '99', 'x', '13, 8'])),
    () => (headers.Host = pick(['', 'evil.example', '[::1', `127.0.0.1:${server.url.port}x`])),
    () => (headers.Origin = pick(['null', 'garbage', 'http://[::1', 'http://evil.example', ''])),
    () => (headers.Cookie = pick(['plumb_session=', 'plumb_session=x', ';;;', '='.repeat(50)])),
    () => delete headers.Cookie,
    () => (headers.Upgrade = pick(['', 'websocket, h2c', 'WebSocket\u0000'])),
    () => (headers['Sec-WebSocket-Extensions'] = pick(['permessage-deflate; x=', ';;', 'a'])),
    () => (headers['Sec-WebSocket-Protocol'] = pick([',', 'a,,b', ' '])),
    () => (headers['Content-Length'] = pick(['-1', '99999999999', 'x'])),
  ];
  const count = Math.floor(random() * 4);
  for (let i = 0; i < count; i++) pick(mutations)();
  const request = upgradeRequest(pick(nastyTargets), headers);
  if (random() < 0.15) {
    // Random bytes somewhere in the request, or cut short.
    const at = Math.floor(random() * request.length);
    const noise = Buffer.from(
      Array.from({ length: 1 + Math.floor(random() * 16) }, () => random() * 256),
    );
    return random() < 0.5
      ? Buffer.concat([request.subarray(0, at), noise])
      : request.subarray(0, at);
  }
  return request;
}

/** Frames no well-behaved client sends, drawn at random; some follow a sound call. */
function randomFrames(random: () => number): Buffer {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const noise = (n: number) => Buffer.from(Array.from({ length: n }, () => random() * 256));
  const call = Buffer.from(JSON.stringify({ type: 'call', id: 1, name: 'app.about', input: {} }));
  const kinds: (() => Buffer)[] = [
    () => frame({ opcode: 1, payload: Buffer.from([0xc3, 0x28, 0xff, 0xfe]) }), // invalid UTF-8
    () => frame({ opcode: 1, rsv: 1 + Math.floor(random() * 7), payload: call }), // RSV bits
    () => frame({ opcode: 1, payload: call, masked: false }), // unmasked client frame
    () =>
      frame({
        opcode: 8,
        payload: closePayload(pick([0, 999, 1004, 1005, 1006, 1015, 2999, 5000, 65535])),
      }),
    () => frame({ opcode: 8, payload: Buffer.from([0x03]) }), // close with one byte
    () => frame({ opcode: 8, payload: closePayload(1000, '\udc00bad') }),
    () => frame({ opcode: 2, payload: Buffer.alloc(0), declaredLength: BigInt((1 << 20) + 1) }),
    () => frame({ opcode: 1, payload: noise(8), declaredLength: 2n ** 63n + 5n }),
    () => frame({ opcode: 3 + Math.floor(random() * 5), payload: noise(4) }), // reserved opcode
    () => frame({ opcode: 0xb + Math.floor(random() * 5), payload: noise(4) }),
    () => frame({ opcode: 9, fin: false, payload: noise(3) }), // fragmented control frame
    () => frame({ opcode: 9, payload: noise(126) }), // control frame too long
    () => frame({ opcode: 0, payload: noise(10) }), // continuation with nothing to continue
    () =>
      Buffer.concat([
        frame({ opcode: 1, fin: false, payload: call }),
        frame({ opcode: 1, payload: call }),
      ]),
    () => noise(1 + Math.floor(random() * 64)),
    () =>
      frame({
        opcode: 1,
        payload: Buffer.from(pick(['{', 'null', '[]', '{"type":"call"}', '"x"'])),
      }),
    () => frame({ opcode: 2, payload: call }),
    () =>
      frame({
        opcode: 1,
        payload: Buffer.from(
          JSON.stringify({
            type: 'call',
            id: pick([1, -1, 1.5, 2 ** 60]),
            name: pick(['', '__proto__', 'space.scan']),
            input: pick([null, 1, 'x', { path: '\u0000' }]),
          }),
        ),
      }),
  ];
  const frames = [kinds[Math.floor(random() * kinds.length)]!()];
  if (random() < 0.3) frames.unshift(frame({ opcode: 1, payload: call }));
  return Buffer.concat(frames);
}

test('a socket fuzz of malformed upgrades and frames leaves the server answering', async () => {
  const seed = Number(process.env.PLUMB_FUZZ_SEED ?? newSeed());
  console.log(`# fuzz seed ${seed} (PLUMB_FUZZ_SEED=${seed} repeats it)`);
  const random = seededRandom(seed);
  const cookie = await signIn(server);
  const upgrades = 1500;
  const frameCases = 1500;
  const cases: (() => Promise<string>)[] = [];
  for (let i = 0; i < upgrades; i++) {
    const request = randomUpgrade(random, cookie);
    cases.push(() => sendRaw(request).then(() => ''));
  }
  for (let i = 0; i < frameCases; i++) {
    const frames = randomFrames(random);
    const handshake = upgradeRequest('/ws', goodUpgradeHeaders(cookie));
    // Half send the frames with the handshake (they reach ws as its `head`), half after the 101.
    cases.push(
      random() < 0.5
        ? () => sendRaw(Buffer.concat([handshake, frames]))
        : () =>
            sendRaw(handshake, (_socket, head) =>
              head.startsWith('HTTP/1.1 101') ? frames : null,
            ),
    );
  }
  let done = 0;
  let upgraded = 0;
  const workers = Array.from({ length: 16 }, async () => {
    while (cases.length > 0) {
      const reply = await cases.shift()!();
      if (reply.startsWith('HTTP/1.1 101')) upgraded++; // frame cases only
      done++;
      if (done % 500 === 0) assert.equal(server.exitCode(), undefined, `died after ${done} cases`);
    }
  });
  await Promise.all(workers);
  console.log(
    `# fuzz: ${done} cases (${upgrades} upgrades, ${frameCases} frame cases, ${upgraded} of them on an open WebSocket), server alive: ${server.exitCode() === undefined}`,
  );
  assert.equal(done, upgrades + frameCases);
  assert.ok(upgraded >= frameCases * 0.9, `the frame cases reached a WebSocket (${upgraded})`);
  await stillServing();
  // And it still does real work for a sound client.
  const socket = await openContractSocket(server, await signIn(server));
  await socket.call('session.choosePath', { path: scratch });
  const reply = await socket.call('volume.info', { path: scratch });
  socket.close();
  assert.equal(reply.ok, true, JSON.stringify(reply.error));
});

describe('the launcher of --open gets a one-time link, never a lasting secret', () => {
  test('its link signs in once; the printed link is another and still works', async () => {
    const bin = mkdtempSync(path.join(os.tmpdir(), 'plumb-fake-launcher-'));
    const recorded = path.join(bin, 'argv.txt');
    // The fake launcher stands in for xdg-open: it records the command line ps would show.
    writeFileSync(
      path.join(bin, 'xdg-open'),
      `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${recorded}.part' && mv '${recorded}.part' '${recorded}'\n`,
    );
    chmodSync(path.join(bin, 'xdg-open'), 0o755);
    const opened = await startServe(['--open'], {
      env: { PATH: `${bin}:${process.env.PATH ?? ''}` },
    });
    try {
      const deadline = Date.now() + 10_000;
      while (!existsSync(recorded) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const argv = readFileSync(recorded, 'utf8').trim().split('\n');
      assert.equal(argv.length, 1, `one argument: ${argv.join(' ')}`);
      const launched = new URL(argv[0]!);
      assert.equal(launched.origin, opened.url.origin);
      assert.deepEqual([...launched.searchParams.keys()], ['code'], 'nothing but a code');
      assert.notEqual(launched.search, opened.url.search, 'not the printed link');
      assert.doesNotMatch(opened.output(), new RegExp(launched.searchParams.get('code')!));

      const first = await rawGet(opened, `/${launched.search}`);
      assert.equal(first.status, 303);
      assert.equal(first.headers.location, '/', 'the code leaves the address bar');
      assert.match(first.headers['set-cookie']?.[0] ?? '', /HttpOnly; SameSite=Strict/);
      const again = await rawGet(opened, `/${launched.search}`);
      assert.equal(again.status, 403, 'what ps showed is worthless once used');
      assert.equal(again.headers['set-cookie'], undefined);
      // The printed link is independent of it.
      assert.ok(await signIn(opened));
    } finally {
      await opened.stop();
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

test('a reply far larger than one WebSocket fragment arrives whole and in order', async () => {
  // The server sends a large message as fragments of about 16 K characters: a scan of several
  // hundred groups (drawn at random) comes back as one reply of a few hundred K.
  const random = seededRandom(newSeed());
  const count = 600 + Math.floor(random() * 400);
  const files: Record<string, Buffer> = {};
  for (let g = 0; g < count; g += 1) {
    const content = Buffer.from(`group ${g} ${random()}`.repeat(1 + Math.floor(random() * 20)));
    files[`g${g}-a.txt`] = content;
    files[`g${g}-b.txt`] = content;
  }
  const socket = await newSession();
  const dir = folderWith('many-groups', files);
  await choose(socket, dir);
  const started = await socket.call('space.scan', { path: dir });
  const { scanId } = started.value as { scanId: string };
  const result = await finishedScan(socket, scanId);
  assert.ok(JSON.stringify(result).length > 8 * 16384, 'more than 8 fragments');
  assert.equal(result.groups.length, count);
  for (const group of result.groups) {
    const names = group.files.map((f) => path.basename(f.path)).sort();
    assert.deepEqual(names, [names[0], names[0]!.replace('-a.', '-b.')]);
  }
  socket.close();
});

/** A fresh session (a browser that signed in) and its contract socket. */
async function newSession(): Promise<ContractSocket> {
  return openContractSocket(server, await signIn(server));
}

function folderWith(name: string, files: Record<string, string | Buffer>): string {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(path.join(dir, file), content);
  return dir;
}

/**
 * What the UI does when the user picks or types a path. Not asserted here, so that on a build
 * without it the refusals that follow are what fails; the positive steps after show it worked.
 */
async function choose(socket: ContractSocket, target: string): Promise<void> {
  await socket.call('session.choosePath', { path: target });
}

async function refused(reply: Promise<{ ok: boolean; error?: { code: string } }>, code: string) {
  const { ok, error } = await reply;
  assert.equal(ok, false, `refused with ${code}`);
  assert.equal(error?.code, code);
}

async function finishedScan(socket: ContractSocket, scanId: string) {
  for (let i = 0; i < 200; i++) {
    const { value } = await socket.call('space.result', { scanId });
    if (value) return value as { groups: { id: string; files: { path: string }[] }[] };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the scan did not finish');
}

describe('a session is not a master key', () => {
  test('scan and listing only in chosen folders', async () => {
    const socket = await newSession();
    const dir = folderWith('scan-me', { a: 'x'.repeat(5000), b: 'x'.repeat(5000) });
    await refused(socket.call('space.scan', { path: dir }), 'ENOTCHOSEN');
    await refused(socket.call('space.sparse.list', { path: dir }), 'ENOTCHOSEN');
    await choose(socket, dir);
    assert.equal((await socket.call('space.sparse.list', { path: dir })).ok, true);
    assert.equal((await socket.call('space.scan', { path: dir })).ok, true);
    socket.close();
  });

  test('a sparse file is created only at a chosen path, not through a link out of it', async () => {
    const socket = await newSession();
    const chosen = folderWith('create-chosen', {});
    const elsewhere = folderWith('create-elsewhere', {});
    symlinkSync(elsewhere, path.join(chosen, 'out'));
    const target = path.join(elsewhere, 'huge.img');
    await refused(socket.call('space.sparse.create', { path: target, bytes: 1e12 }), 'ENOTCHOSEN');
    await choose(socket, chosen);
    await refused(socket.call('space.sparse.create', { path: target, bytes: 1e12 }), 'ENOTCHOSEN');
    await refused(
      socket.call('space.sparse.create', {
        path: path.join(chosen, 'out', 'huge.img'),
        bytes: 1e12,
      }),
      'ENOTCHOSEN',
    );
    assert.equal(existsSync(target), false, 'nothing was made');
    const ok = await socket.call('space.sparse.create', {
      path: path.join(chosen, 'disk.img'),
      bytes: 1e9,
    });
    assert.equal(ok.ok, true, JSON.stringify(ok.error));
    socket.close();
  });

  test('a readable secret is not copied unless both ends were chosen', async () => {
    const socket = await newSession();
    const secretDir = folderWith('secret', { shadow: 'root:$6$hash:19000::::::\n' });
    const secret = path.join(secretDir, 'shadow');
    chmodSync(secret, 0o600);
    const destination = folderWith('copy-to', {});
    const copy = path.join(destination, 'loot');
    await refused(socket.call('space.sparse.copy', { from: secret, to: copy }), 'ENOTCHOSEN');
    assert.equal(existsSync(copy), false);
    await choose(socket, destination);
    await refused(socket.call('space.sparse.copy', { from: secret, to: copy }), 'ENOTCHOSEN');
    assert.equal(existsSync(copy), false);
    // The other way round: the source chosen, the destination not.
    const other = await newSession();
    await choose(other, secret);
    await refused(other.call('space.sparse.copy', { from: secret, to: copy }), 'ENOTCHOSEN');
    assert.equal(existsSync(copy), false);
    // The user chose both (in one session): the copy is made.
    await choose(other, copy);
    const made = await other.call('space.sparse.copy', { from: secret, to: copy });
    assert.equal(made.ok, true, JSON.stringify(made.error));
    socket.close();
    other.close();
  });

  test('dedupe and punch apply only what the session chose and reviewed', async () => {
    const socket = await newSession();
    const same = Buffer.alloc(64 * 1024, 7);
    const dir = folderWith('dedupe', { a: same, b: same, zeros: Buffer.alloc(256 * 1024) });
    await choose(socket, dir);
    const started = await socket.call('space.scan', { path: dir });
    const { scanId } = started.value as { scanId: string };
    const result = await finishedScan(socket, scanId);
    assert.equal(result.groups.length, 1);
    await refused(socket.call('space.dedupe', { scanId, apply: true }), 'ENOTREVIEWED');
    // Another browser cannot act on this session's scan, dry run or not.
    const stranger = await newSession();
    await refused(stranger.call('space.dedupe', { scanId }), 'ENOTCHOSEN');
    await refused(stranger.call('space.dedupe', { scanId, apply: true }), 'ENOTCHOSEN');
    stranger.close();
    // The UI's flow: the dry run is shown, then confirmed.
    assert.equal((await socket.call('space.dedupe', { scanId })).ok, true);
    const applied = await socket.call('space.dedupe', { scanId, apply: true });
    assert.equal(applied.ok, true, JSON.stringify(applied.error));
    await refused(socket.call('space.dedupe', { scanId, apply: true }), 'ENOTREVIEWED');

    const zeros = path.join(dir, 'zeros');
    await refused(socket.call('space.sparse.punch', { path: zeros, apply: true }), 'ENOTREVIEWED');
    assert.equal((await socket.call('space.sparse.punch', { path: zeros })).ok, true);
    const punched = await socket.call('space.sparse.punch', { path: zeros, apply: true });
    assert.equal(punched.ok, true, JSON.stringify(punched.error));
    socket.close();
  });

  test('a benchmark runs only on chosen folders', async () => {
    const socket = await newSession();
    const dir = folderWith('bench', {});
    await refused(
      socket.call('bench.start', { path: dir, plan: 'series', scale: 0.001 }),
      'ENOTCHOSEN',
    );
    const chosen = folderWith('bench-chosen', {});
    await choose(socket, chosen);
    await refused(
      socket.call('bench.start', { path: chosen, plan: 'paired', pairedWith: dir, scale: 0.001 }),
      'ENOTCHOSEN',
    );
    socket.close();
  });

  test(
    'the free-space guard cannot be switched off from the socket (reserveBytes: 0)',
    { skip: tmpfsSkipReason() },
    async () => {
      const small = mountTmpfs(128 * 1024 * 1024);
      const socket = await newSession();
      try {
        await choose(socket, small.dir);
        const reply = await socket.call('bench.start', {
          path: small.dir,
          plan: 'series',
          scale: 0.001, // about 19 MB: it fits when the guard is off
          buffered: true,
          reserveBytes: 0,
        });
        if (reply.ok) {
          await socket.call('jobs.cancel', { jobId: (reply.value as { runId: string }).runId });
        }
        assert.equal(reply.ok, false, 'refused: the floor keeps at least 256 MB free');
        assert.equal(reply.error?.code, 'ESPACEGUARD');
        assert.match(reply.error?.message ?? '', /Plumb keeps 256 MB free here/);
      } finally {
        socket.close();
        // A refused run wrote nothing; give a started one (on a broken build) time to stop.
        await new Promise((resolve) => setTimeout(resolve, 500));
        small.unmount();
      }
    },
  );
});
