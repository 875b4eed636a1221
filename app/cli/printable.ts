/**
 * Text as it may reach a terminal. Messages quote user input and file bytes (JSON errors quote the
 * text near the fault), and file names may hold anything but '/': escape codes in them must not
 * act on the terminal, and a name's bytes that are not UTF-8 (kept as lone surrogates,
 * app/contract/path.ts) are shown as \xNN rather than as U+FFFD.
 */
import { keptByte } from '../common/path-text.js';

function escaped(char: string): string {
  const byte = keptByte(char);
  if (byte !== null) return `\\x${byte.toString(16)}`;
  const code = char.charCodeAt(0);
  return code >= 0xd800 ? `\\u{${code.toString(16)}}` : `\\x${code.toString(16).padStart(2, '0')}`;
}

/** A message, lines and tabs kept: every other control character and lone surrogate escaped. */
export function printable(message: string): string {
  // eslint-disable-next-line no-control-regex
  return message.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|\p{Cs}/gu, escaped);
}

/** One line that quotes names: tabs and line breaks in a name escaped too. */
export function printableLine(line: string): string {
  // eslint-disable-next-line no-control-regex
  return line.replace(/[\u0000-\u001f\u007f-\u009f]|\p{Cs}/gu, escaped);
}
