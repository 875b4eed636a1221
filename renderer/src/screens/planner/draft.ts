/**
 * The planner's unsaved edits, kept in the browser's storage as they are made, so a reload, a
 * crash or a closed window loses nothing: the next visit opens them again and says so. Cleared
 * when the scenario is saved or another is opened.
 */
import type { Scenario } from '../../../../app/contract/planner.js';

const draftKey = 'plumb.planner.draft';

export interface PlannerDraft {
  scenario: Scenario;
  /** The saved scenario the edits belong to, or null for one never saved. */
  currentId: string | null;
  /** The scenario as last saved or opened, to tell edits from it. */
  base: string;
}

/** The draft left by an earlier visit, or null (none, no storage, or not a draft). */
export function readDraft(): PlannerDraft | null {
  try {
    const text = window.localStorage.getItem(draftKey);
    if (!text) return null;
    const draft = JSON.parse(text) as Partial<PlannerDraft>;
    if (
      typeof draft !== 'object' ||
      draft === null ||
      typeof draft.scenario !== 'object' ||
      draft.scenario === null ||
      typeof draft.base !== 'string'
    ) {
      return null;
    }
    return {
      scenario: draft.scenario,
      currentId: typeof draft.currentId === 'string' ? draft.currentId : null,
      base: draft.base,
    };
  } catch {
    return null; // storage disabled or the text damaged: start from the defaults
  }
}

/** Keeps `draft` (null: removes it). */
export function keepDraft(draft: PlannerDraft | null): void {
  try {
    if (draft) window.localStorage.setItem(draftKey, JSON.stringify(draft));
    else window.localStorage.removeItem(draftKey);
  } catch {
    // storage disabled: the edits stay on screen for this visit
  }
}
