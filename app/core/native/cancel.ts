/** Native cancel handles that follow an AbortSignal. */
import type { CancelHandle } from '../../../native/index.js';
import { loadNative } from './load.js';

/** A native cancel handle that follows `signal`, and a function to stop following it. */
export function cancelFollowing(signal: AbortSignal | undefined): {
  cancel: CancelHandle;
  release: () => void;
} {
  const cancel = loadNative().createCancel();
  if (!signal) return { cancel, release: () => undefined };
  if (signal.aborted) cancel.cancel();
  const onAbort = (): void => cancel.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  return { cancel, release: () => signal.removeEventListener('abort', onAbort) };
}
