import { z } from 'zod';
import { guard } from './guard.js';

/** Facts about the volume that holds a folder. `null` always means "the OS did not say". */
export const VolumeInfo = z.object({
  path: z.string(),
  fsType: z.string().nullable(),
  mountPoint: z.string().nullable(),
  device: z.string().nullable(),
  totalBytes: z.number().nonnegative(),
  freeBytes: z.number().nonnegative(),
  availableBytes: z.number().nonnegative(),
  blockSize: z.number().int().nonnegative(),
  directIoAlignment: z.number().int().positive().nullable(),
  supportsClones: z.boolean().nullable(),
  supportsSparse: z.boolean().nullable(),
  rotational: z.boolean().nullable(),
  bus: z.string().nullable(),
  medium: z.enum(['ssd', 'hdd']).nullable(),
  internal: z.boolean().nullable(),
  readOnly: z.boolean().nullable(),
  /**
   * The pool whose free space this volume shares with the other volumes in it (an APFS container,
   * "disk5"): their free-space figures are one and the same. null when its space is its own.
   */
  container: z.string().nullable(),
});
export type VolumeInfo = z.infer<typeof VolumeInfo>;

export const PathInput = z.object({
  path: z.string().trim().min(1, 'Give a folder path.').max(4096),
});

export const volumeOperations = {
  /** Volume facts for the folder at `path`. */
  'volume.info': { input: PathInput, output: VolumeInfo, guard: guard({ chosenPaths: ['path'] }) },
  /**
   * Records a folder or file the user picked or typed (and confirmed) in this session's UI. Scans,
   * listings, benchmarks and every operation that changes files act only inside chosen paths.
   * Returns the path as Plumb resolved it (symbolic links followed).
   */
  'session.choosePath': { input: PathInput, output: z.object({ path: z.string() }) },
  /** The system folder picker (desktop only); null when the user cancels. It counts as chosen. */
  'dialog.chooseFolder': {
    input: z.object({ title: z.string().max(200).optional() }),
    output: z.object({ path: z.string().nullable() }),
  },
  /**
   * Shows a file in Finder / Explorer / the file manager (desktop only: ENOTSUP in a browser,
   * where the UI copies the path instead).
   */
  'dialog.revealPath': {
    input: PathInput,
    output: z.object({}),
    guard: guard({ chosenPaths: ['path'] }),
  },
} as const;
