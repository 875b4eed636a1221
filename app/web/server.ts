/**
 * Web mode: the renderer and the whole contract on 127.0.0.1, for any local browser. One HTTP
 * server for static files and one WebSocket for calls and events; everything needs the token.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CallMessage, ServerMessage } from '../contract/index.js';
import { toErrorPayload } from '../contract/errors.js';
import { createDispatcher, type CallContext } from '../core/dispatch.js';
import { eventHub } from '../core/event-hub.js';
import { rendererDir } from '../core/paths.js';
import { contentSecurityPolicy } from '../core/security/csp.js';
import { createHandlers } from '../core/services.js';
import { checkAccess, tokenCookie } from './access.js';
import { contentTypeOf, resolveStatic } from '../core/static-files.js';

export interface ServeOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  token?: string;
  staticRoot?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

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
  response.end(`Refused: ${reason}. Open the URL that \`plumb serve\` printed.\n`);
}

function isCallMessage(value: unknown): value is CallMessage {
  const m = value as Partial<CallMessage> | null;
  return !!m && m.type === 'call' && Number.isSafeInteger(m.id) && typeof m.name === 'string';
}

function serveConnection(socket: WebSocket): void {
  const send = (message: ServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const context: CallContext = { emit: (name, payload) => send({ type: 'event', name, payload }) };
  // Every page hears every run, so a reloaded page can follow one it did not start.
  const unsubscribe = eventHub.subscribe(context);
  socket.on('close', unsubscribe);
  const dispatcher = createDispatcher(createHandlers('web'));
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
  const token = options.token ?? randomBytes(24).toString('base64url');
  const staticRoot = options.staticRoot ?? rendererDir();
  let port = 0;

  const server = http.createServer((request, response) => {
    const decision = checkAccess(
      {
        host: request.headers.host,
        origin: request.headers.origin,
        url: request.url ?? '/',
        cookie: request.headers.cookie,
      },
      port,
      token,
    );
    if (!decision.ok) return refuse(response, decision.status, decision.reason);
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return refuse(response, 403, 'method not allowed');
    const urlPath = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    resolveStatic(staticRoot, urlPath).then(
      (file) => {
        if (!file) return refuse(response, 404, 'no such file');
        const headers: Record<string, string> = {
          'Content-Type': contentTypeOf(file),
          ...securityHeaders,
        };
        if (decision.tokenFromQuery) {
          headers['Set-Cookie'] = `${tokenCookie}=${token}; HttpOnly; SameSite=Strict; Path=/`;
        }
        response.writeHead(200, headers);
        if (request.method === 'HEAD') return response.end();
        createReadStream(file).pipe(response);
      },
      () => refuse(response, 500, 'could not read the file'),
    );
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });
  server.on('upgrade', (request, socket, head) => {
    const decision = checkAccess(
      // Browsers always send Origin on a WebSocket; a missing one is not a page we served.
      {
        host: request.headers.host,
        origin: request.headers.origin ?? 'null',
        url: request.url ?? '/',
        cookie: request.headers.cookie,
      },
      port,
      token,
    );
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (!decision.ok || path !== '/ws') {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => serveConnection(ws));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
