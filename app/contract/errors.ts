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

/** What the system said went wrong, as a sentence with what to do; keyed by errno code. */
const systemSentences: Record<string, (where: string) => string> = {
  ENOENT: (where) => `${where} does not exist (any more). Check the path, or choose another.`,
  EEXIST: (where) => `${where} already exists. Choose another name, or move that one away first.`,
  EACCES: (where) =>
    `Plumb is not allowed to use ${where}. Choose a folder you can write to, or change its permissions.`,
  EPERM: (where) =>
    `The system did not let Plumb change ${where}. Choose a folder you own, or change its permissions.`,
  ENOTDIR: (where) => `Part of ${where} is a file, not a folder. Check the path.`,
  EISDIR: (where) => `${where} is a folder, not a file. Give a file.`,
  ENOSPC: (where) => `The disk holding ${where} is full. Free some space, then try again.`,
  EROFS: (where) => `${where} is on a read-only volume. Choose a folder on a writable disk.`,
  EBUSY: (where) => `${where} is in use by another program. Close it, then try again.`,
  ENAMETOOLONG: (where) => `The path ${where} is too long. Choose a shorter one.`,
  EFBIG: (where) =>
    `${where} would be longer than its file system allows for one file. Choose a smaller size.`,
  ELOOP: (where) => `${where} goes through a loop of links. Give the real folder.`,
  EMFILE: () => 'Too many files are open at once. Close other programs, then try again.',
  EIO: (where) =>
    `The disk reported a read or write error at ${where}. Check the disk and its cable, then try again.`,
};

/** A Node or addon error ("EEXIST: file already exists, open '/x'") in words with what to do. */
function plainSystemMessage(error: Error, code: string): string | null {
  const sentence = systemSentences[code];
  // Only Node's own wording ("CODE: text, syscall 'path'"); an addon's sentence is kept.
  if (!sentence || !error.message.startsWith(`${code}:`)) return null;
  const where = (error as { path?: unknown }).path;
  return sentence(typeof where === 'string' ? where : 'the file');
}

/**
 * Any thrown value → the JSON payload sent to a front end. Node/addon errors keep their code;
 * their message (errno text and syscall) is put in words that say what to do.
 */
export function toErrorPayload(error: unknown): ErrorPayload {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string') return { code: 'EINTERNAL', message: error.message };
    const plain = error instanceof PlumbError ? null : plainSystemMessage(error, code);
    return { code, message: plain ?? error.message };
  }
  return { code: 'EINTERNAL', message: String(error) };
}
