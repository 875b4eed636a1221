/**
 * What the user chose in this session's UI: the folders and files they picked or typed, and the
 * dry runs they were shown. The contract's handlers are wrapped here, once, for every front door
 * (Electron and the browser alike): operations that read a whole tree or change files act only
 * inside a chosen path, and the destructive ones only after the review the UI shows. Holding the
 * web token (or a page's socket) is then no longer a key to every file the process can reach.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { PlumbError } from '../contract/errors.js';
import type { CallContext, Handlers } from './dispatch.js';
import { newestScanRoot } from './space/last-scan.js';

/**
 * The real path of `target`, or, for a path not made yet, the real path of its nearest existing
 * folder with the rest appended: a symbolic link cannot carry a chosen path somewhere else.
 */
export async function resolveForChoice(target: string): Promise<string> {
  const absolute = path.resolve(target);
  const missing: string[] = [];
  for (let at = absolute; ; at = path.dirname(at)) {
    try {
      return path.join(await realpath(at), ...missing.reverse());
    } catch {
      if (path.dirname(at) === at) return absolute;
      missing.push(path.basename(at));
    }
  }
}

function isInside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

export class UserChoices {
  private readonly chosen = new Set<string>();
  private readonly reviewed = new Set<string>();

  /** Records a path the user chose; returns it resolved. */
  async choose(target: string): Promise<string> {
    const resolved = await resolveForChoice(target);
    this.chosen.add(resolved);
    return resolved;
  }

  /** Whether `target` is a chosen path or inside one. */
  async covers(target: string): Promise<boolean> {
    const resolved = await resolveForChoice(target);
    for (const folder of this.chosen) if (isInside(folder, resolved)) return true;
    return false;
  }

  /** Throws ENOTCHOSEN unless `target` is a chosen path or inside one. */
  async requireChosen(target: string): Promise<void> {
    if (await this.covers(target)) return;
    throw new PlumbError(
      'ENOTCHOSEN',
      `${target} was not chosen in this window: choose or type it in Plumb, then try again.`,
    );
  }

  /**
   * Runs `action` as a dry run (`apply` false), noting that the user was shown it, or as the apply
   * that the shown dry run allows, once; an apply with no dry run before throws ENOTREVIEWED.
   */
  async afterReview<T>(action: string, apply: boolean, run: () => Promise<T>): Promise<T> {
    if (apply && !this.reviewed.delete(action)) {
      throw new PlumbError(
        'ENOTREVIEWED',
        'Nothing was changed: review the dry run and confirm it in Plumb before applying.',
      );
    }
    const result = await run();
    if (!apply) this.reviewed.add(action);
    return result;
  }
}

/** The operations wrapped here; a test checks every operation taking a path is among them. */
export const guardedOperations = [
  'session.choosePath',
  'dialog.chooseFolder',
  'space.scan',
  'space.dedupe',
  'space.sparse.list',
  'space.sparse.create',
  'space.sparse.punch',
  'space.sparse.copy',
  'space.sparse.candidates',
  'space.lastScan',
  'space.result',
  'space.groups',
  'space.trash',
  'space.trash.empty',
  'dialog.revealPath',
  'bench.start',
  'volume.info',
] as const;
type Guarded = (typeof guardedOperations)[number];

/**
 * The keepers of a dedupe or Trash as a review key: an apply must keep the files its dry run
 * showed kept, not others.
 */
function keepersKey(keepers: Record<string, string> | undefined): string {
  return JSON.stringify(Object.entries(keepers ?? {}).sort());
}

/**
 * The handlers with every path checked against `choices`. Only the list of the computer's
 * volumes (`volumes.list`) and Plumb's own data folder are left as they are: even the facts of a
 * folder's volume are given only for a chosen folder, so an answer or its error never tells a
 * session whether some other path exists.
 */
export function guardHandlers(
  handlers: Omit<Handlers, 'session.choosePath'>,
  choices: UserChoices,
): Handlers {
  /** The folder a finished scan is of (its groups not read), or null for a scan not known. */
  const scanRoot = async (scanId: string, context: CallContext): Promise<string | null> =>
    handlers['space.groups']({ scanId, offset: 0, limit: 0 }, context).then(
      (page) => page.root,
      () => null,
    );
  const guarded: Pick<Handlers, Guarded> = {
    'session.choosePath': async ({ path: target }) => ({ path: await choices.choose(target) }),
    // The system picker is the user's own gesture, so what it returns counts as chosen.
    'dialog.chooseFolder': async (input, context) => {
      const picked = await handlers['dialog.chooseFolder'](input, context);
      if (picked.path !== null) await choices.choose(picked.path);
      return picked;
    },
    'space.scan': async (input, context) => {
      await choices.requireChosen(input.path);
      return handlers['space.scan'](input, context);
    },
    'space.dedupe': async (input, context) => {
      // An unknown scan is left to the handler, whose error says what to do.
      const root = await scanRoot(input.scanId, context);
      if (root !== null) await choices.requireChosen(root);
      const groups = input.groupIds ? [...input.groupIds].sort().join(',') : '*';
      const keepers = keepersKey(input.keepers);
      return choices.afterReview(`dedupe ${input.scanId} ${groups} ${keepers}`, input.apply, () =>
        handlers['space.dedupe'](input, context),
      );
    },
    'space.sparse.list': async (input, context) => {
      await choices.requireChosen(input.path);
      return handlers['space.sparse.list'](input, context);
    },
    'space.sparse.create': async (input, context) => {
      await choices.requireChosen(input.path);
      return handlers['space.sparse.create'](input, context);
    },
    'space.sparse.punch': async (input, context) => {
      await choices.requireChosen(input.path);
      const file = await resolveForChoice(input.path);
      return choices.afterReview(`punch ${file}`, input.apply, () =>
        handlers['space.sparse.punch'](input, context),
      );
    },
    'space.sparse.copy': async (input, context) => {
      await choices.requireChosen(input.from);
      await choices.requireChosen(input.to);
      return handlers['space.sparse.copy'](input, context);
    },
    'space.sparse.candidates': async (input, context) => {
      await choices.requireChosen(input.path);
      return handlers['space.sparse.candidates'](input, context);
    },
    'space.lastScan': async (input, context) => {
      if (input.path !== undefined) {
        await choices.requireChosen(input.path);
        return handlers['space.lastScan'](input, context);
      }
      // The newest scan of a folder this session chose: another browser's are not its to see.
      const root = await newestScanRoot((scanned) => choices.covers(scanned));
      return root === null ? null : handlers['space.lastScan']({ path: root }, context);
    },
    'space.result': async (input, context) => {
      const scan = await handlers['space.result'](input, context);
      if (scan) await choices.requireChosen(scan.root);
      return scan;
    },
    'space.groups': async (input, context) => {
      const page = await handlers['space.groups'](input, context);
      await choices.requireChosen(page.root);
      return page;
    },
    'volume.info': async (input, context) => {
      await choices.requireChosen(input.path);
      return handlers['volume.info'](input, context);
    },
    'space.trash': async (input, context) => {
      const root = await scanRoot(input.scanId, context);
      if (root !== null) await choices.requireChosen(root);
      const groups = input.groupIds ? [...input.groupIds].sort().join(',') : '*';
      const keepers = keepersKey(input.keepers);
      return choices.afterReview(`trash ${input.scanId} ${groups} ${keepers}`, input.apply, () =>
        handlers['space.trash'](input, context),
      );
    },
    'space.trash.empty': async (input, context) =>
      choices.afterReview(`empty ${input.batchId}`, input.apply, () =>
        handlers['space.trash.empty'](input, context),
      ),
    'dialog.revealPath': async (input, context) => {
      await choices.requireChosen(input.path);
      return handlers['dialog.revealPath'](input, context);
    },
    'bench.start': async (input, context) => {
      await choices.requireChosen(input.path);
      if (input.pairedWith !== undefined) await choices.requireChosen(input.pairedWith);
      return handlers['bench.start'](input, context);
    },
  };
  return { ...handlers, ...guarded };
}
