/**
 * What differs from one OS to another, in one interface with one module per OS (linux.ts,
 * darwin.ts, win32.ts; fio's os/os-*.h): the code above it never asks which OS it runs on, it
 * asks the module (app/core/os/index.ts picks this computer's once).
 */
import type nodePath from 'node:path';
import type { NativeVolumeInfo } from '../../../native/index.js';

/** How the space tools share storage between duplicates (app/contract/space.ts DedupeMethod). */
export type DedupeMethodOfOs = 'dedupe-range' | 'clone-rename';

/**
 * How holes are made without losing a write. guarded-in-place: the addon reads and punches each
 * block under a guard that holds every other program off the file. clone-rename (no such guard):
 * a clone of the file is punched and swapped in by the dedupe's guarded, journalled replace.
 */
export type PunchMethod = 'guarded-in-place' | 'clone-rename';

/**
 * What a volume shares with others: the pool whose free space it draws on with its siblings (an
 * APFS container, "disk5"), null when its space is its own or the OS did not say.
 */
export interface SharedSpace {
  container: string | null;
}

/** Where a file moved to the Trash goes: the Recycle Bin, the macOS Trash or the XDG Trash. */
export type TrashKind = 'recycle-bin' | 'macos' | 'xdg';

export interface OsModule {
  /** Node's name of the OS (process.platform). */
  readonly platform: NodeJS.Platform;
  /** Paths as this OS writes them. */
  readonly path: typeof nodePath.posix;
  /** Plumb's data folder when PLUMB_DATA_DIR does not say (the OS's user-data folder). */
  dataDir(env: NodeJS.ProcessEnv, home: string): string;
  /** Plumb's state folder when PLUMB_STATE_DIR does not say. */
  stateDir(env: NodeJS.ProcessEnv, home: string): string;
  /** Files and folders carry owner-only modes (0600, 0700) and an owner's uid; Windows uses ACLs. */
  readonly ownerModes: boolean;
  /** File names are bytes (any but NUL and /), not UTF-16 strings (app/core/os-fs.ts). */
  readonly bytesNamed: boolean;
  /** How a dedupe shares storage unless told. */
  readonly dedupeMethod: DedupeMethodOfOs;
  /** How a punch makes holes unless told. */
  readonly punchMethod: PunchMethod;
  readonly trashKind: TrashKind;
  /** The mount points a user could test (each then asked for its volume facts). */
  mountPoints(): Promise<string[]>;
  /** The name a list of volumes shows for `mountPoint`. */
  volumeName(mountPoint: string): string;
  /**
   * The addon's volume facts with what only the OS's own tools tell (the bus and the APFS
   * container on macOS).
   */
  completeVolumeFacts<T extends NativeVolumeInfo>(info: T): Promise<T & SharedSpace>;
  /** Where Chrome, Chromium or Edge usually are, in the order to try them. */
  browserCandidates(env: NodeJS.ProcessEnv): string[];
  /** How to install a browser that prints reports, as one clause. */
  readonly browserInstallHint: string;
  /** Chromium refuses to run as root with its sandbox (Linux); true when it must go without. */
  chromiumNeedsNoSandbox(): boolean;
}
