/**
 * Messages on the web transport's single WebSocket. A call carries an id; its reply carries the
 * same id. Events are pushed with no id.
 */
import type { ErrorPayload } from './errors.js';

export interface CallMessage {
  type: 'call';
  id: number;
  name: string;
  input: unknown;
}

export type ReplyMessage = { type: 'reply'; id: number } & (
  { ok: true; value: unknown } | { ok: false; error: ErrorPayload }
);

export interface EventMessage {
  type: 'event';
  name: string;
  payload: unknown;
}

export type ServerMessage = ReplyMessage | EventMessage;
