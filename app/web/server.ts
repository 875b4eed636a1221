/**
 * Web mode: the renderer and the whole contract on 127.0.0.1, for any local browser. One HTTP
 * server for static files and one WebSocket for calls and events; everything needs a session,
 * which a one-time sign-in link gives (sign-in.ts). Whatever arrives, malformed or hostile, is
 * answered or dropped: nothing a client sends may stop the process.
 */
import { createReadStream } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CallMessage, ServerMessage } from '../contract/wire.js';
import { toErrorPayload } from '../contract/errors.js';
import { createDispatcher, type CallContext } from '../core/dispatch.js';
import { eventHub } from '../core/event-hub.js';
import { jsonBatches } from '../core/json-out.js';
import { rendererDir } from '../core/paths.js';
import { contentSecurityPolicy } from '../core/security/csp.js';
import { createHandlers } from '../core/services.js';
import { createAppContext, type AppContext } from '../core/context.js';
import { UserChoices } from '../core/user-choices.js';
import { checkAccess, sessionCookie, signInParam } from './access.js';
import { SignInBook, type MintOptions } from './sign-in.js';
import { contentTypeOf, resolveStatic } from '../core/static-files.js';

export interface ServeOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  staticRoot?: string;
  /** The app context every connection works in (by default, this environment's folders). */
  context?: AppContext;
}

export interface RunningServer {
  /** http://127.0.0.1:PORT, with no credential in it. */
  origin: string;
  port: number;
  /** A link that signs one browser in, once (see sign-in.ts). */
  signInUrl(options?: MintOptions): string;
  close(): Promise<void>;
}

/** Largest WebSocket message accepted; larger ones close the socket (code 1009). */
const maxMessageBytes = 1 << 20;
/** Levels of a server message opened to find its large arrays: it, its payload, a result in that. */
const messageLevels = 4;

const securityHeaders = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

function refuse(response: http.ServerResponse, status: number, reason: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...securityHeaders });
  response.end(
    `Refused: ${reason}. Open the newest link that \`plumb serve\` printed (it prints a new one each time one is used).\n`,
  );
}

function isCallMessage(value: unknown): value is CallMessage {
  const m = value as Partial<CallMessage> | null;
  return !!m && m.type === 'call' && Number.isSafeInteger(m.id) && typeof m.name === 'string';
}

function serveConnection(socket: WebSocket, choices: UserChoices, app: AppContext): void {
  // A malformed frame (bad UTF-8, RSV bits, an unmasked frame, a bad close code, too large) makes
  // ws emit 'error' and close the socket; without a listener that error would end the process.
  socket.on('error', () => undefined);
  // A large message (a scan of a million files is 180 MB of JSON) goes out as the fragments of one
  // WebSocket message, about 16 K characters each, so it is never also one string here.
  const send = (message: ServerMessage) => {
    if (socket.readyState !== socket.OPEN) return;
    let pending: string | undefined;
    for (const batch of jsonBatches(message, messageLevels, true)) {
      if (pending !== undefined) socket.send(pending, { fin: false });
      pending = batch;
    }
    socket.send(pending ?? '', { fin: true });
  };
  const closed = new AbortController();
  const context: CallContext = {
    emit: (name, payload) => send({ type: 'event', name, payload }),
    closed: closed.signal,
    session: choices,
  };
  // Every page of the session hears its runs, so a reloaded page can follow one it did not start.
  const unsubscribe = eventHub.subscribe(context);
  socket.on('close', () => {
    unsubscribe();
    // What only this page awaited (an analysis) stops with it.
    closed.abort();
  });
  const dispatcher = createDispatcher(createHandlers(app, 'web', {}, choices));
  socket.on('message', (data, isBinary) => {
    let message: unknown;
    try {
      message = isBinary ? undefined : JSON.parse(data.toString());
    } catch {
      message = undefined;
    }
    if (!isCallMessage(message)) {
      socket.close(1003, 'expected a call message');
      return;
    }
    const { id } = message;
    dispatcher.call(message.name, message.input, context).then(
      (value) => send({ type: 'reply', id, ok: true, value }),
      (error: unknown) => send({ type: 'reply', id, ok: false, error: toErrorPayload(error) }),
    );
  });
}

export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const staticRoot = options.staticRoot ?? rendererDir();
  const app = options.context ?? createAppContext();
  // One set of choices per signed-in browser: its tabs and reloads share what the user chose.
  const book = new SignInBook(() => new UserChoices());
  let port = 0;

  const handleRequest = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const access = checkAccess(
      {
        host: request.headers.host,
        origin: request.headers.origin,
        url: request.url ?? '/',
        cookie: request.headers.cookie,
      },
      port,
    );
    if (!access.ok) return refuse(response, access.status, access.reason);
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return refuse(response, 403, 'method not allowed');
    if (access.code !== undefined && request.method === 'GET') {
      const session = book.redeem(access.code);
      if (session === undefined && !book.session(access.session)) {
        return refuse(response, 403, 'this sign-in link was used already or has expired');
      }
      // Off the address bar (and out of what a reload would send) as soon as it is used.
      const headers: Record<string, string> = { Location: '/', ...securityHeaders };
      if (session !== undefined) {
        headers['Set-Cookie'] = `${sessionCookie}=${session}; HttpOnly; SameSite=Strict; Path=/`;
      }
      response.writeHead(303, headers);
      return response.end();
    }
    if (!book.session(access.session)) {
      return refuse(response, 403, 'not signed in');
    }
    resolveStatic(staticRoot, access.pathname).then(
      (file) => {
        if (!file) return refuse(response, 404, 'no such file');
        response.writeHead(200, { 'Content-Type': contentTypeOf(file), ...securityHeaders });
        if (request.method === 'HEAD') return response.end();
        createReadStream(file)
          .on('error', () => response.destroy())
          .pipe(response);
      },
      () => refuse(response, 500, 'could not read the file'),
    );
  };

  const server = http.createServer((request, response) => {
    response.on('error', () => undefined);
    try {
      handleRequest(request, response);
    } catch {
      response.destroy();
    }
  });
  // Requests Node cannot even parse: drop the connection (never an uncaught error).
  server.on('clientError', (_error, socket) => socket.destroy());

  const sockets = new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes });
  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    try {
      const access = checkAccess(
        // Browsers always send Origin on a WebSocket; a missing one is not a page we served.
        {
          host: request.headers.host,
          origin: request.headers.origin ?? 'null',
          url: request.url ?? '/',
          cookie: request.headers.cookie,
        },
        port,
      );
      const choices = access.ok ? book.session(access.session) : undefined;
      if (!access.ok || !choices || access.pathname !== '/ws') {
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
        return;
      }
      sockets.handleUpgrade(request, socket, head, (ws) => serveConnection(ws, choices, app));
    } catch {
      socket.destroy();
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    port,
    signInUrl: (mint) => `${origin}/?${signInParam}=${book.mint(mint)}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
