import { z } from 'zod';

/**
 * A path a front end sends: not empty, not absurdly long, and without a NUL byte (no file system
 * takes one; Node would answer with its internal argument error instead of a sentence).
 */
export function pathField(emptyMessage: string) {
  return z
    .string()
    .trim()
    .min(1, emptyMessage)
    .max(4096)
    .refine((value) => !value.includes('\0'), 'A path cannot contain a NUL byte.');
}
