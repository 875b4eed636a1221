/**
 * The mounted volumes a benchmark can target, for the "choose a target" step: every real
 * (block-device) file system with the same facts `volume.info` gives for a folder.
 */
import { z } from 'zod';
import { VolumeInfo } from './volume.js';

export const MountedVolume = VolumeInfo.extend({
  /** What to call the volume in a list: its label or the last part of its mount point. */
  name: z.string(),
});
export type MountedVolume = z.infer<typeof MountedVolume>;

export const volumesOperations = {
  /** Mounted volumes backed by a disk (not proc, tmpfs, overlays or network shares). */
  'volumes.list': {
    input: z.object({}).strict(),
    output: z.object({ volumes: z.array(MountedVolume) }),
  },
} as const;
