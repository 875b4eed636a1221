/**
 * Events for every front end, not only the one that asked: a run started from one page goes on
 * being reported to a reloaded page, or a second window. Front doors subscribe a call context
 * per connection (per window); work started by a call publishes to that caller and to every
 * subscriber, each once.
 */
import type { EventName, EventPayload } from '../contract/index.js';
import type { CallContext } from './dispatch.js';

/**
 * Whether what `owner` started is for `viewer`: always where either has no session (the desktop
 * app has one, the CLI none); under `plumb serve`, only within one session.
 */
export function sameSession(owner: object | undefined, viewer: object | undefined): boolean {
  return owner === undefined || viewer === undefined || owner === viewer;
}

export class EventHub {
  private readonly subscribers = new Set<CallContext>();

  /** Sends every published event to `context` until the returned function is called. */
  subscribe(context: CallContext): () => void {
    this.subscribers.add(context);
    return () => this.subscribers.delete(context);
  }

  get size(): number {
    return this.subscribers.size;
  }

  /**
   * To `origin` (the caller, subscribed or not) and every subscriber, once each; what a session
   * of `plumb serve` started goes to that session's pages only.
   */
  publish<E extends EventName>(name: E, payload: EventPayload<E>, origin?: CallContext): void {
    if (origin && !this.subscribers.has(origin)) origin.emit(name, payload);
    for (const subscriber of this.subscribers) {
      if (sameSession(origin?.session, subscriber.session)) subscriber.emit(name, payload);
    }
  }
}

/** The process's hub: the WebSocket server and the Electron main process subscribe to it. */
export const eventHub = new EventHub();
