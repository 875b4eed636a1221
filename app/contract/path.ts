/**
 * How every path crosses the contract (scan results, dedupe and Trash reports, sparse listings,
 * saved scans and journals): as a string, and without loss.
 *
 * - A name that is Unicode is the plain string, so the JSON of ordinary trees is what it always
 *   was.
 * - Linux and macOS names are bytes, and may not be UTF-8 (a file from an old Latin-1 archive:
 *   "caf\xe9.txt"). Each byte that does not begin well-formed UTF-8 is kept as the lone
 *   surrogate U+DC00 + byte (U+DC80–U+DCFF), as Python's surrogateescape does: "caf\udce9.txt".
 *   JSON writes it as the escape "\udce9" and reads it back as it was.
 * - Windows names are UTF-16 and may hold a lone surrogate themselves: the string is the name.
 *
 * The addon takes and gives paths in this form (native/src/engine/utf.h). Node's fs does not: it
 * would write a lone surrogate as U+FFFD and miss the file. So a path goes back to the OS in one
 * place, app/core/os-fs.ts, which hands Node the name's bytes (app/common/path-text.ts); and it
 * is shown with each kept byte as \xNN (app/cli/printable.ts), never raw.
 */
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
