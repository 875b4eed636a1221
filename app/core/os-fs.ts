/**
 * node:fs/promises for paths as Plumb carries them (app/contract/path.ts): the one place a path
 * goes back to the OS from JavaScript. A path keeping bytes of a name that is not UTF-8 reaches
 * Node as those bytes (a Buffer), which Node passes on untouched; given the string, Node would
 * write each kept byte as U+FFFD and miss the file ("no longer exists"). Names read from a folder
 * come back in the same form. Windows names are UTF-16 strings, which Node takes as they are.
 */
import type { PathLike } from 'node:fs';
import * as fs from 'node:fs/promises';
import { keepsBytes, pathFromBytes, pathToBytes } from '../common/path-text.js';
import { hostOs } from './os/index.js';

const { bytesNamed } = hostOs;

/** The path as Node's fs takes it: the string itself, or the name's bytes where it keeps some. */
function osPath(path: PathLike): PathLike {
  return bytesNamed && typeof path === 'string' && keepsBytes(path)
    ? Buffer.from(pathToBytes(path))
    : path;
}

type OnePath = (path: PathLike, ...rest: never[]) => unknown;
type TwoPaths = (from: PathLike, to: PathLike, ...rest: never[]) => unknown;

/** `call` with its path argument given as Node's fs takes it (osPath); the same overloads. */
function onePath<Call extends OnePath>(call: Call): Call {
  return ((path: PathLike, ...rest: never[]) => call(osPath(path), ...rest)) as Call;
}

function twoPaths<Call extends TwoPaths>(call: Call): Call {
  return ((from: PathLike, to: PathLike, ...rest: never[]) =>
    call(osPath(from), osPath(to), ...rest)) as Call;
}

export const access = onePath(fs.access);
export const chmod = onePath(fs.chmod);
export const lstat = onePath(fs.lstat);
export const mkdir = onePath(fs.mkdir);
export const open = onePath(fs.open);
export const readFile = onePath(fs.readFile);
export const stat = onePath(fs.stat);
export const statfs = onePath(fs.statfs);
export const unlink = onePath(fs.unlink);
export const writeFile = onePath(fs.writeFile);
export const link = twoPaths(fs.link);
export const rename = twoPaths(fs.rename);

/** A folder's entries (names, or Dirents with `withFileTypes`), names in the same form. */
export const readdir = (async (dir: PathLike, options?: { withFileTypes?: boolean }) => {
  if (!bytesNamed) return fs.readdir(dir, options as undefined);
  if (options?.withFileTypes) {
    const entries = await fs.readdir(osPath(dir), { withFileTypes: true, encoding: 'buffer' });
    for (const entry of entries) {
      (entry as unknown as { name: string }).name = pathFromBytes(entry.name);
    }
    return entries;
  }
  const names = await fs.readdir(osPath(dir), { encoding: 'buffer' });
  return names.map((name) => pathFromBytes(name));
}) as typeof fs.readdir;
