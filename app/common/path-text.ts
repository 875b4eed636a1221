/**
 * Paths as Plumb carries them in strings (app/contract/path.ts): a name's bytes that are not
 * UTF-8 stay in the string, each as the lone surrogate U+DC00 + byte (U+DC80–U+DCFF), as the
 * addon makes them (native/src/engine/utf.h) and Python's surrogateescape (PEP 383) does. These
 * turn such a string back into the name's bytes where a path goes to the OS, and bytes read from
 * the OS into such a string.
 */

/** A lone surrogate: nothing a Unicode name holds, so a kept byte (or a Windows name's own unit). */
const loneSurrogate = /\p{Cs}/u;

/** Whether the path holds a byte of a name that is not Unicode (or another lone surrogate). */
export function keepsBytes(path: string): boolean {
  return loneSurrogate.test(path);
}

/** The byte a lone surrogate keeps (U+DC80–U+DCFF), or null for any other character. */
export function keptByte(char: string): number | null {
  const unit = char.length === 1 ? char.charCodeAt(0) : 0;
  return unit >= 0xdc80 && unit <= 0xdcff ? unit - 0xdc00 : null;
}

function pushUtf8(code: number, out: number[]): void {
  if (code < 0x80) out.push(code);
  else if (code < 0x800) out.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
  else if (code < 0x10000)
    out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
  else
    out.push(
      0xf0 | (code >> 18),
      0x80 | ((code >> 12) & 0x3f),
      0x80 | ((code >> 6) & 0x3f),
      0x80 | (code & 0x3f),
    );
}

/** The path's bytes: UTF-8, each kept byte as itself (another lone surrogate as WTF-8's 3). */
export function pathToBytes(path: string): Uint8Array {
  const out: number[] = [];
  for (const char of path) {
    const byte = keptByte(char);
    if (byte === null) pushUtf8(char.codePointAt(0)!, out);
    else out.push(byte);
  }
  return Uint8Array.from(out);
}

/**
 * The length of the well-formed UTF-8 sequence at bytes[i] (Unicode's table 3-7: no overlong
 * forms, no surrogates, nothing past U+10FFFF) with its code point, or null where none starts.
 */
function sequenceAt(bytes: Uint8Array, i: number): [number, number] | null {
  const lead = bytes[i]!;
  const follows = (k: number, low = 0x80, high = 0xbf): boolean =>
    k < bytes.length && bytes[k]! >= low && bytes[k]! <= high;
  const tail = (k: number): number => bytes[k]! & 0x3f;
  if (lead < 0x80) return [1, lead];
  if (lead >= 0xc2 && lead <= 0xdf) {
    return follows(i + 1) ? [2, ((lead & 0x1f) << 6) | tail(i + 1)] : null;
  }
  if (lead >= 0xe0 && lead <= 0xef) {
    const low = lead === 0xe0 ? 0xa0 : 0x80;
    const high = lead === 0xed ? 0x9f : 0xbf;
    if (!follows(i + 1, low, high) || !follows(i + 2)) return null;
    return [3, ((lead & 0x0f) << 12) | (tail(i + 1) << 6) | tail(i + 2)];
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const low = lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xf4 ? 0x8f : 0xbf;
    if (!follows(i + 1, low, high) || !follows(i + 2) || !follows(i + 3)) return null;
    return [4, ((lead & 0x07) << 18) | (tail(i + 1) << 12) | (tail(i + 2) << 6) | tail(i + 3)];
  }
  return null;
}

/** The string for a name's bytes: UTF-8 where it is, each other byte kept as its surrogate. */
export function pathFromBytes(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const sequence = sequenceAt(bytes, i);
    if (sequence) {
      out += String.fromCodePoint(sequence[1]);
      i += sequence[0];
    } else {
      out += String.fromCharCode(0xdc00 + bytes[i]!);
      i += 1;
    }
  }
  return out;
}
