/**
 * What an operation asks of the session before it runs, marked on its contract entry as `guard`
 * and applied to every such handler by app/core/user-choices.ts: paths inside a folder the user
 * chose, and the dry run shown before an apply. A test checks that every operation taking a path
 * marks it.
 */
export interface OperationGuard {
  /** Input fields naming a path that must be a chosen path or inside one. */
  readonly chosenPaths?: readonly string[];
  /** It acts on a finished scan (its `scanId`): the scanned folder must have been chosen. */
  readonly onScan?: true;
  /**
   * With `apply`, it runs only after a dry run of the same input was shown, and once: these
   * fields are what must be the same (paths among them compared as resolved).
   */
  readonly review?: readonly string[];
}

/** Checks a guard's type where it is written (the contract's maps are `as const`). */
export const guard = (value: OperationGuard): OperationGuard => value;
