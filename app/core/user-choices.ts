/**
 * What the user chose in this session's UI: the folders and files they picked or typed, and the
 * dry runs they were shown. The contract's handlers are wrapped here, once, for every front door
 * (Electron and the browser alike): operations that read a whole tree or change files act only
 * inside a chosen path, and the destructive ones only after the review the UI shows. Holding the
 * web token (or a page's socket) is then no longer a key to every file the process can reach.
 */
import { realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PlumbError } from '../contract/errors.js';
import type { OperationGuard } from '../contract/guard.js';
import { operations, type OperationName } from '../contract/index.js';
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

  /**
   * Records a path the user chose; returns it resolved. A relative path is refused: typed in a
   * window, it has no folder to start from that the user can see (the server's working folder is
   * not theirs to know), so the error suggests the full path under their home folder instead of
   * silently reading it from there.
   */
  async choose(target: string): Promise<string> {
    if (!path.isAbsolute(target)) {
      throw new PlumbError(
        'EINVAL',
        `"${target}" is not a full path: give the whole path, such as ${path.join(os.homedir(), target)}`,
      );
    }
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

/**
 * A review key's part for one input field: paths resolved (a link or `..` names the same file),
 * lists sorted and records by key (their order means nothing), absent as '*' (all of them).
 */
async function reviewPart(value: unknown, isPath: boolean): Promise<unknown> {
  if (value === undefined) return '*';
  if (isPath && typeof value === 'string') return resolveForChoice(value);
  if (Array.isArray(value)) return [...(value as string[])].sort();
  if (typeof value === 'object' && value !== null) return Object.entries(value).sort();
  return value;
}

type AnyHandler = (input: Record<string, unknown>, context: CallContext) => Promise<unknown>;

/**
 * `handler` under the guard its contract entry marks (app/contract/guard.ts): each path field
 * inside a chosen path, the scan acted on of a chosen folder, and an apply only after the dry
 * run of the same input, once.
 */
function guarded(
  name: OperationName,
  guard: OperationGuard,
  handler: AnyHandler,
  handlers: Omit<Handlers, 'session.choosePath'>,
  choices: UserChoices,
): AnyHandler {
  return async (input, context) => {
    for (const field of guard.chosenPaths ?? []) {
      const value = input[field];
      if (typeof value === 'string') await choices.requireChosen(value);
    }
    if (guard.onScan) {
      // The scan's folder, none of its groups read (a kept scan's are in its file).
      const root = await handlers['space.groups'](
        { scanId: String(input.scanId), offset: 0, limit: 0 },
        context,
      ).then(
        (page) => page.root,
        () => null, // an unknown scan is left to the handler, whose error says what to do
      );
      if (root !== null) await choices.requireChosen(root);
    }
    const review = guard.review;
    if (!review) return handler(input, context);
    const parts = await Promise.all(
      review.map((field) => reviewPart(input[field], guard.chosenPaths?.includes(field) ?? false)),
    );
    return choices.afterReview(JSON.stringify([name, ...parts]), input.apply === true, () =>
      handler(input, context),
    );
  };
}

/**
 * The handlers with every path checked against `choices`: each operation under the guard its
 * contract entry marks, and here by hand what the marks cannot say (choosing, and which kept scan
 * a session may see). Only the list of the computer's volumes (`volumes.list`) and Plumb's own
 * data folder are left as they are: even the facts of a folder's volume are given only for a
 * chosen folder, so an answer or its error never tells a session whether some other path exists.
 */
export function guardHandlers(
  handlers: Omit<Handlers, 'session.choosePath'>,
  choices: UserChoices,
  scansDir: string,
): Handlers {
  const marked: Record<string, AnyHandler> = {};
  for (const [name, entry] of Object.entries(operations)) {
    const guard = (entry as { guard?: OperationGuard }).guard;
    const handler = (handlers as unknown as Record<string, AnyHandler>)[name];
    if (guard && handler) {
      marked[name] = guarded(name as OperationName, guard, handler, handlers, choices);
    }
  }
  const byHand: Pick<
    Handlers,
    'session.choosePath' | 'dialog.chooseFolder' | 'space.lastScan' | 'space.result'
  > = {
    'session.choosePath': async ({ path: target }) => ({ path: await choices.choose(target) }),
    // The system picker is the user's own gesture, so what it returns counts as chosen.
    'dialog.chooseFolder': async (input, context) => {
      const picked = await handlers['dialog.chooseFolder'](input, context);
      if (picked.path !== null) await choices.choose(picked.path);
      return picked;
    },
    'space.lastScan': async (input, context) => {
      if (input.path !== undefined) {
        await choices.requireChosen(input.path);
        return handlers['space.lastScan'](input, context);
      }
      // The newest scan of a folder this session chose: another browser's are not its to see.
      const root = await newestScanRoot(scansDir, (scanned) => choices.covers(scanned));
      return root === null ? null : handlers['space.lastScan']({ path: root }, context);
    },
    'space.result': async (input, context) => {
      const scan = await handlers['space.result'](input, context);
      if (scan) await choices.requireChosen(scan.root);
      return scan;
    },
  };
  return { ...handlers, ...(marked as Partial<Handlers>), ...byHand };
}
