/**
 * The OS module of this computer, picked once: the one place in app/core that reads
 * process.platform (a lint rule keeps it so). Code that is tested for other OSes takes a platform
 * and asks `osModule(platform)`.
 */
import { darwin } from './darwin.js';
import { linux } from './linux.js';
import type { OsModule } from './os-module.js';
import { win32 } from './win32.js';

export type { DedupeMethodOfOs, OsModule, PunchMethod, TrashKind } from './os-module.js';

/**
 * Another Unix (FreeBSD, say): Linux's folders, modes and Trash, without what Linux alone has
 * (FIDEDUPERANGE, /proc/self/mounts).
 */
function otherUnix(platform: NodeJS.Platform): OsModule {
  return {
    ...linux,
    platform,
    dedupeMethod: 'clone-rename',
    mountPoints: async () => ['/'],
    chromiumNeedsNoSandbox: () => false,
  };
}

const modules: Partial<Record<NodeJS.Platform, OsModule>> = { linux, darwin, win32 };

/** The module of `platform`. */
export function osModule(platform: NodeJS.Platform): OsModule {
  return modules[platform] ?? otherUnix(platform);
}

/** The module of the OS this process runs on. */
export const hostOs: OsModule = osModule(process.platform);
