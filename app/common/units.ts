/**
 * Size units as people type them: decimal as drive makers use them (1 GB = 10⁹ bytes), binary as
 * operating systems do (1 GiB = 2³⁰). Pure: imports nothing, so core, contract and renderer share it.
 */

/** Bytes in one of each unit, keyed by its lower-case name; '' and 'b' are bytes. */
export const bytesPerUnit: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  m: 1e6,
  mb: 1e6,
  g: 1e9,
  gb: 1e9,
  t: 1e12,
  tb: 1e12,
  pb: 1e15,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};

/** "512MB" → 512e6, "8 GiB" → 8·2³⁰, "100" → 100; null when the text is not a size. */
export function parseSize(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  const multiplier = match ? bytesPerUnit[match[2]!.toLowerCase()] : undefined;
  return match && multiplier !== undefined ? Math.round(Number(match[1]) * multiplier) : null;
}

/** Bytes ↔ the gigabytes a form field shows (one decimal). */
export const toGb = (bytes: number) => Number((bytes / 1e9).toFixed(1));
export const fromGb = (gigabytes: number) => Math.round(gigabytes * 1e9);

/** A size typed into a field: as parseSize, but null unless it is more than 0 bytes. */
export function parseSizeInput(text: string): number | null {
  const bytes = parseSize(text);
  return bytes !== null && bytes > 0 ? bytes : null;
}
