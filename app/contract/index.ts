/**
 * The contract: every operation the UI can call and every event it can receive, in one place.
 * The Electron preload, the WebSocket transport and the renderer's client are all checked
 * against these maps; inputs are validated with the schemas wherever they cross a process
 * boundary. Values are JSON only.
 */
import type { z } from 'zod';
import { appOperations } from './app.js';
import { benchOperations } from './bench.js';
import type { ErrorPayload } from './errors.js';
import { jobEvents, jobOperations } from './jobs.js';
import { plannerOperations } from './planner.js';
import { reportOperations } from './report.js';
import { spaceEvents, spaceOperations } from './space.js';
import { volumeOperations } from './volume.js';
import { volumesOperations } from './volumes.js';

export const operations = {
  ...appOperations,
  ...benchOperations,
  ...jobOperations,
  ...plannerOperations,
  ...reportOperations,
  ...spaceOperations,
  ...volumeOperations,
  ...volumesOperations,
} as const;

/** Event streams pushed from core to the UI: name → payload schema. */
export const events = {
  ...jobEvents,
  ...spaceEvents,
} as const satisfies Record<string, z.ZodType>;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export type OperationInput<N extends OperationName> = z.input<Operations[N]['input']>;
export type OperationParsedInput<N extends OperationName> = z.output<Operations[N]['input']>;
export type OperationOutput<N extends OperationName> = z.output<Operations[N]['output']>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && Object.hasOwn(operations, name);
}

/** The answer to one call, as it crosses IPC or the WebSocket: errors travel as data. */
export type Reply = { ok: true; value: unknown } | { ok: false; error: ErrorPayload };

/**
 * What the renderer finds as `window.plumb`: provided by the Electron preload or, in a browser,
 * by the WebSocket shim. The renderer's typed client wraps it; nothing else uses it.
 */
export interface PlumbBridge {
  readonly transport: 'electron' | 'web';
  invoke(name: string, input: unknown): Promise<Reply>;
  on(name: string, listener: (payload: unknown) => void): () => void;
}
