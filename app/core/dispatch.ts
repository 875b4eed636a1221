/**
 * The single entry point the front doors (Electron IPC, WebSocket) use: look the operation up in
 * the contract, validate its input, run its handler, and return JSON-safe output.
 */
import {
  isOperationName,
  operations,
  type EventName,
  type EventPayload,
  type OperationName,
  type OperationOutput,
  type OperationParsedInput,
} from '../contract/index.js';
import { PlumbError } from '../contract/errors.js';

export type EventSink = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

export interface CallContext {
  /** Push an event to the front end that made the call. */
  emit: EventSink;
  /** Aborts when that front end goes away (its page closed): work only it awaits can stop. */
  closed?: AbortSignal;
  /**
   * The session the front end belongs to under `plumb serve` (one per sign-in, shared by its
   * pages): it hears and sees only its own jobs, and cancels only those. None where there is one
   * session (the desktop app, the CLI).
   */
  session?: object;
}

export type Handlers = {
  [N in OperationName]: (
    input: OperationParsedInput<N>,
    context: CallContext,
  ) => Promise<OperationOutput<N>>;
};

export interface Dispatcher {
  call(name: unknown, input: unknown, context: CallContext): Promise<unknown>;
}

/** One line per problem, naming the field, so a front end can show it as is. */
function describeIssues(
  name: string,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): string {
  const parts = issues.map((issue) => {
    const where = issue.path.map(String).join('.');
    return where ? `${where}: ${issue.message}` : issue.message;
  });
  return `Bad input for ${name}: ${parts.join('; ')}`;
}

export function createDispatcher(handlers: Handlers): Dispatcher {
  return {
    async call(name, input, context) {
      if (!isOperationName(name)) {
        throw new PlumbError('EUNKNOWNOP', `Unknown operation ${JSON.stringify(name)}.`);
      }
      const schema = operations[name].input;
      const parsed = schema.safeParse(input ?? {});
      if (!parsed.success)
        throw new PlumbError('EINVAL', describeIssues(name, parsed.error.issues));
      const handler = handlers[name] as (input: unknown, context: CallContext) => Promise<unknown>;
      return handler(parsed.data, context);
    },
  };
}
