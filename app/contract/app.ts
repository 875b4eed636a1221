import { z } from 'zod';

export const AppAbout = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  arch: z.string(),
  /** Which front door the renderer is talking to. */
  transport: z.enum(['electron', 'web']),
  nativeAvailable: z.boolean(),
  /** A folder to suggest in pickers (the user's home folder). */
  homeDir: z.string(),
});
export type AppAbout = z.infer<typeof AppAbout>;

export const appOperations = {
  /** Version and platform facts for the About box and for reports. */
  'app.about': { input: z.object({}).strict(), output: AppAbout },
} as const;
