/** Talking to `plumb serve` without a browser: sign in with a link, then call over the WebSocket. */
import http from 'node:http';
import WebSocket from 'ws';
import type { ServeProcess } from './cli.js';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP GET, so Host, Origin and Cookie can be forged the way a hostile client would. */
export function rawGet(
  server: ServeProcess,
  urlPath: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
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
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on('error', reject);
  });
}

/** The `name=value` of the cookie a sign-in response set, or undefined. */
export function cookieOf(response: RawResponse): string | undefined {
  return response.headers['set-cookie']?.[0]?.split(';')[0];
}

/** Signs in with the next printed link, as a browser would; resolves with the Cookie header. */
export async function signIn(server: ServeProcess): Promise<string> {
  const link = await server.nextUrl();
  const response = await rawGet(server, `${link.pathname}${link.search}`);
  const cookie = cookieOf(response);
  if (!cookie)
    throw new Error(`signing in gave ${response.status} and no cookie: ${response.body}`);
  return cookie;
}

export interface CallReply {
  ok: boolean;
  value?: unknown;
  error?: { code: string; message: string };
}

export interface ContractSocket {
  call(name: string, input: unknown): Promise<CallReply>;
  /** Calls `listener` with the payload of every `name` event pushed from now on. */
  on(name: string, listener: (payload: unknown) => void): void;
  close(): void;
}

/** A contract connection with the session `cookie`, as the page's own would be. */
export async function openContractSocket(
  server: ServeProcess,
  cookie: string,
): Promise<ContractSocket> {
  const socket = new WebSocket(`ws://${server.url.host}/ws`, {
    origin: `http://${server.url.host}`,
    headers: { cookie },
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, (reply: CallReply) => void>();
  const listeners: { name: string; listener: (payload: unknown) => void }[] = [];
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString()) as CallReply & {
      type: string;
      id: number;
      name?: string;
      payload?: unknown;
    };
    if (message.type === 'reply') pending.get(message.id)?.(message);
    if (message.type === 'event') {
      for (const { name, listener } of listeners)
        if (name === message.name) listener(message.payload);
    }
  });
  return {
    call: (name, input) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        socket.send(JSON.stringify({ type: 'call', id, name, input }));
      }),
    on: (name, listener) => void listeners.push({ name, listener }),
    close: () => socket.close(),
  };
}

/** What the tests read of a finished scan. */
export interface ScannedFolder {
  scanId: string;
  root: string;
  groups: { id: string; files: { path: string }[] }[];
}

/** Chooses and scans `dir` as the Space view does (with `input` added), and waits for the result. */
export async function scanned(
  socket: ContractSocket,
  dir: string,
  input: Record<string, unknown> = {},
): Promise<ScannedFolder> {
  await socket.call('session.choosePath', { path: dir });
  const started = await socket.call('space.scan', { path: dir, ...input });
  if (!started.ok) throw new Error(`space.scan: ${JSON.stringify(started.error)}`);
  const { scanId } = started.value as { scanId: string };
  for (let i = 0; i < 400; i += 1) {
    const reply = await socket.call('space.result', { scanId });
    if (reply.value) return reply.value as ScannedFolder;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the scan did not finish');
}
