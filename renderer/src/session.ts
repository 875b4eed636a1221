/**
 * What one section hands to another for this session ("Test this disk" on Volumes opens "Test a
 * disk" with that folder), and the last folder tested, kept across restarts in localStorage.
 * Sections themselves stay mounted (App keeps them alive), so their own state needs no store.
 */
import { useEffect, useSyncExternalStore } from 'react';

/** The sections a folder can be handed to. */
export type FolderTarget = 'bench' | 'space';

/** A folder offered to a section; `serial` tells two offers of the same folder apart. */
export interface FolderOffer {
  path: string;
  serial: number;
}

const offers = new Map<FolderTarget, FolderOffer>();
/** The last offer each section acted on, so a remount or a second effect run does not redo it. */
const taken = new Map<FolderTarget, number>();
const listeners = new Set<() => void>();
let serial = 0;
const lastFolderKey = 'plumb.lastFolder';

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Offers `path` to `section` and shows that section. */
export function openWithFolder(section: FolderTarget, path: string): void {
  offers.set(section, { path, serial: ++serial });
  for (const listener of listeners) listener();
  window.location.hash = `#/${section}`;
}

/** The latest folder offered to `section`, or null; `onOffer` runs once for each new offer. */
export function useFolderOffer(
  section: FolderTarget | null,
  onOffer: (path: string) => void,
): void {
  const offer = useSyncExternalStore(subscribe, () => (section && offers.get(section)) || null);
  useEffect(() => {
    if (!section || !offer || taken.get(section) === offer.serial) return;
    taken.set(section, offer.serial);
    onOffer(offer.path);
    // A new offer, not a new callback, is what should fill the field again.
  }, [offer]);
}

/** The serial of the latest folder offered to `section` (0 if none), for views that follow it. */
export function useFolderOfferSerial(section: FolderTarget): number {
  return useSyncExternalStore(subscribe, () => offers.get(section)?.serial ?? 0);
}

/** Whether a folder was ever offered to `section` (then it wins over the remembered one). */
export function hasFolderOffer(section: FolderTarget): boolean {
  return offers.has(section);
}

/** The folder the user last tested in, remembered across restarts (null if none or no storage). */
export function lastFolder(): string | null {
  try {
    return window.localStorage.getItem(lastFolderKey);
  } catch {
    return null; // storage disabled by the browser: nothing remembered, nothing lost
  }
}

export function rememberFolder(path: string): void {
  try {
    window.localStorage.setItem(lastFolderKey, path);
  } catch {
    // storage disabled: the folder is still used for this session
  }
}
