/**
 * The one error shape that crosses every boundary (IPC, WebSocket, CLI): a stable code and a
 * sentence the user can act on.
 */
export interface ErrorPayload {
  code: string;
  message: string;
}

/**
 * The free-space guard refused a run, or stopped one, while the volume still had room: not the
 * OS's ENOSPC, and a front door may add its own way to change the guard (the CLI names its flags).
 */
export const spaceGuardCode = 'ESPACEGUARD';

export class PlumbError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PlumbError';
    this.code = code;
  }
}

/** Any thrown value → the JSON payload sent to a front end. Node/addon errors keep their code. */
export function toErrorPayload(error: unknown): ErrorPayload {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { code: typeof code === 'string' ? code : 'EINTERNAL', message: error.message };
  }
  return { code: 'EINTERNAL', message: String(error) };
}
