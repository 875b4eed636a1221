/** The renderer's typed client: contract names and types in, typed results or a PlumbClientError out. */
import type {
  EventName,
  EventPayload,
  OperationInput,
  OperationName,
  OperationOutput,
  PlumbBridge,
} from '../../app/contract/index.js';

class PlumbClientError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'PlumbClientError';
    this.code = code;
  }
}

export interface PlumbClient {
  readonly transport: PlumbBridge['transport'];
  call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>>;
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export function createClient(bridge: PlumbBridge): PlumbClient {
  return {
    transport: bridge.transport,
    async call(name, input) {
      const reply = await bridge.invoke(name, input);
      if (!reply.ok) throw new PlumbClientError(reply.error.code, reply.error.message);
      return reply.value as OperationOutput<typeof name>;
    },
    on(name, listener) {
      return bridge.on(name, (payload) => listener(payload as EventPayload<typeof name>));
    },
  };
}
