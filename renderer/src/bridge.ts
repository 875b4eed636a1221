/**
 * Finds window.plumb: provided by the Electron preload, or, in a browser, made here over one
 * WebSocket to `plumb serve`. Both have the same shape, so nothing above this file cares which.
 */
import type { PlumbBridge, Reply } from '../../app/contract/index.js';
import type { ServerMessage } from '../../app/contract/wire.js';

declare global {
  interface Window {
    plumb?: PlumbBridge;
  }
}

const reconnectDelayMs = 1000;

function createWebBridge(location: Location): PlumbBridge {
  // The session cookie the sign-in link set goes with the socket; the URL carries no secret.
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  const pending = new Map<number, (reply: Reply) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let socket: WebSocket | undefined;
  let ready: Promise<WebSocket> | undefined;

  const connect = (): Promise<WebSocket> => {
    ready ??= new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.addEventListener('open', () => {
        socket = ws;
        resolve(ws);
      });
      ws.addEventListener('message', (event) => {
        const message = JSON.parse(String(event.data)) as ServerMessage;
        if (message.type === 'reply') {
          const settle = pending.get(message.id);
          pending.delete(message.id);
          settle?.(
            message.ok ? { ok: true, value: message.value } : { ok: false, error: message.error },
          );
        } else {
          for (const listener of listeners.get(message.name) ?? []) listener(message.payload);
        }
      });
      ws.addEventListener('close', () => {
        socket = undefined;
        ready = undefined;
        for (const settle of pending.values()) {
          settle({
            ok: false,
            error: {
              code: 'EDISCONNECTED',
              message: 'Lost the connection to Plumb. Is `plumb serve` still running?',
            },
          });
        }
        pending.clear();
        if (listeners.size > 0)
          setTimeout(() => void connect().catch(() => undefined), reconnectDelayMs);
      });
      ws.addEventListener('error', () =>
        reject(new Error('Cannot reach Plumb. Is `plumb serve` still running?')),
      );
    });
    return ready;
  };

  return {
    transport: 'web',
    async invoke(name, input) {
      let ws: WebSocket;
      try {
        ws = socket ?? (await connect());
      } catch (error) {
        return { ok: false, error: { code: 'EDISCONNECTED', message: (error as Error).message } };
      }
      const id = nextId++;
      return new Promise<Reply>((resolve) => {
        pending.set(id, resolve);
        ws.send(JSON.stringify({ type: 'call', id, name, input }));
      });
    },
    on(name, listener) {
      const set = listeners.get(name) ?? new Set();
      set.add(listener);
      listeners.set(name, set);
      void connect().catch(() => undefined);
      return () => set.delete(listener);
    },
  };
}

export function getBridge(): PlumbBridge {
  window.plumb ??= createWebBridge(window.location);
  return window.plumb;
}
