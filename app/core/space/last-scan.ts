/**
 * The last scan of each folder, kept in the data folder beside the results (space-scans/, the
 * app context's `folders.spaceScans`, given as `dir` to each function here), so
 * reopening the view shows it with its age, and the scan engine's hash cache beside it, so a
 * rescan reads only files whose inode, size or times changed. One key per folder: the SHA-256 of
 * its absolute path.
 */
import { createHash } from 'node:crypto';
import { open, readdir, readFile, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { PlumbError } from '../../contract/errors.js';
import type { DuplicateGroup, SavedScan, ScanResult } from '../../contract/space.js';
import { removableBytes, withRemovableTotal } from '../../common/removable.js';
import { privateFolder, writePrivateFile } from '../paths.js';

function keyOf(folder: string): string {
  return createHash('sha256').update(path.resolve(folder)).digest('hex').slice(0, 32);
}

/** The scan engine's digest cache for `folder` (the folder holding it is made). */
export function hashCachePath(dir: string, folder: string): string {
  return path.join(dir, `${keyOf(folder)}.hashes`);
}

/**
 * A kept scan is its document (`KEY.json`, a SavedScan: the figures, the groups written compact
 * one after the other, then any figures after them) and an index beside it (`KEY.index.json`):
 * where each group starts in the document and where the text after them starts, so a reopen
 * reads the figures and one page of groups, not a document of 180 MB (481 MB parsed, 626 MB with
 * the schema check, for 300,000 groups). The index names the document's size: a document
 * written without it (by an older Plumb) is read whole once and kept again with one.
 */
interface ScanIndex {
  format: 1;
  savedAt: string;
  /** The document's length in bytes. */
  bytes: number;
  /** Byte offsets: where each group starts, then where the last one ends. */
  groupsAt: number[];
  /** Where the text after the groups' closing "]" starts (the figures after them, if any). */
  tailAt?: number;
}

/** Where a document's groups are, filled in as its pieces are written. */
interface Layout {
  groupsAt: number[];
  tailAt: number;
}

/** A kept scan opened by its index: its figures (groups empty) and where its groups are. */
export interface KeptScan {
  file: string;
  savedAt: string;
  head: ScanResult;
  groupCount: number;
  groupsAt: readonly number[];
  tailAt: number;
  /** The document's size and time when opened: a newer scan of the folder replaces it. */
  bytes: number;
  mtimeMs: number;
}

const indexFileOf = (file: string) => file.replace(/\.json$/, '.index.json');
const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The document's text in pieces, groups last, one group a piece after the head; `layout` is
 * filled with each group's offset as the pieces are taken.
 */
function* savedPieces(saved: SavedScan, layout: Layout): Generator<string> {
  const { groups, ...figures } = saved.result;
  // `{"savedAt":…,"result":{…,"groups":[]}}` cut before its last "]}}".
  const whole = JSON.stringify({ savedAt: saved.savedAt, result: { ...figures, groups: [] } });
  const head = whole.slice(0, -']}}'.length);
  const writer = groupWriter(layout, byteLength(head));
  yield head;
  for (const group of groups) {
    const batch = writer.add(JSON.stringify(group));
    if (batch) yield batch;
  }
  yield `${writer.end()}}}`;
}

/**
 * Groups written one after the other from `at`, comma between, in batches of about 64 KB, their
 * offsets noted in `layout`; end() gives the last batch and the closing "]".
 */
function groupWriter(layout: Layout, at: number) {
  let batch = '';
  return {
    add(text: string): string | null {
      if (layout.groupsAt.length > 0) {
        batch += ',';
        at += 1;
      }
      layout.groupsAt.push(at);
      at += byteLength(text);
      batch += text;
      if (batch.length < 64 * 1024) return null;
      const full = batch;
      batch = '';
      return full;
    },
    end(): string {
      layout.groupsAt.push(at);
      layout.tailAt = at + 1;
      return `${batch}]`;
    },
  };
}

/** Lines of a JSON text in pieces of bytes (JSON escapes every newline inside a string). */
function* linesOf(pieces: Iterator<Uint8Array>, first: Uint8Array): Generator<string> {
  let carry = Buffer.from(first);
  for (;;) {
    let start = 0;
    for (let end = carry.indexOf(10); end !== -1; end = carry.indexOf(10, start)) {
      yield carry.toString('utf8', start, end);
      start = end + 1;
    }
    const next = pieces.next();
    if (next.done) {
      if (start < carry.length) yield carry.toString('utf8', start);
      return;
    }
    carry = Buffer.concat([carry.subarray(start), next.value]);
  }
}

/**
 * The kept document made from a scan's JSON text as the addon writes it
 * (`JSON.stringify(result, null, 2)`, scanFolderJson): the figures as they come, each group
 * parsed alone and written compact, the Trash total added to the totals after them. No object
 * is made for the whole result: a scan of a million files holds one group at a time.
 */
function* documentOf(lines: Iterator<string>, savedAt: string, layout: Layout): Generator<string> {
  const opening = `{"savedAt":${JSON.stringify(savedAt)},"result":`;
  let head = '';
  let line = lines.next();
  for (; !line.done && !line.value.startsWith('  "groups": ['); line = lines.next()) {
    head += `${line.value}\n`;
  }
  if (line.done) throw new Error('The scan’s JSON has no groups.');
  head = `${opening}${head}  "groups": [`;
  const writer = groupWriter(layout, byteLength(head));
  yield head;
  let removable = 0;
  if (line.value === '  "groups": [') {
    let group = '';
    for (line = lines.next(); !line.done; line = lines.next()) {
      const text = line.value;
      if (text === '  ]' || text === '  ],') break;
      if (text !== '    }' && text !== '    },') {
        group += text;
        continue;
      }
      const parsed = JSON.parse(`${group}}`) as DuplicateGroup;
      removable += removableBytes(parsed);
      const batch = writer.add(JSON.stringify(parsed));
      if (batch) yield batch;
      group = '';
    }
  }
  yield writer.end();
  // What follows the groups: `"totals": …, …}` after a comma, or only the result's "}".
  let rest = '';
  for (line = lines.next(); !line.done; line = lines.next()) rest += `${line.value}\n`;
  const after = JSON.parse(`{${rest}`) as {
    totals?: Record<string, unknown>;
  };
  if (after.totals) after.totals = { ...after.totals, removableBytes: removable };
  const text = JSON.stringify(after);
  yield text === '{}' ? '}}' : `,${text.slice(1)}}`;
}

async function keep(dir: string, saved: SavedScan): Promise<void> {
  await writeKept(dir, saved.result.root, saved.savedAt, (layout) => savedPieces(saved, layout));
}

/** Writes a kept document of `root`'s scan, then the index that pages it. */
async function writeKept(
  dir: string,
  root: string,
  savedAt: string,
  pieces: (layout: Layout) => Iterable<string> | AsyncIterable<string>,
): Promise<string> {
  const file = path.join(dir, `${keyOf(root)}.json`);
  const layout: Layout = { groupsAt: [], tailAt: 0 };
  // Written in pieces: a scan of a million files as one string (and its bytes) would add twice
  // its 180 MB to the app's memory. The index follows the document it describes; the old one goes
  // first, so a rewrite (an apply on the scan) cut short never leaves it beside the new document.
  await rm(indexFileOf(file), { force: true });
  await writePrivateFile(file, pieces(layout));
  const { size } = await stat(file);
  const index: ScanIndex = { format: 1, savedAt, bytes: size, ...layout };
  await writePrivateFile(indexFileOf(file), JSON.stringify(index));
  return file;
}

/**
 * Keeps a scan from its JSON text (scanFolderJson's pieces) as the folder's last scan, and opens
 * it for paging: the way a scan is shown without holding its result (whole, a scan of a million
 * files is 180 MB of groups).
 */
export async function keepScanJson(
  dir: string,
  pieces: Iterable<Uint8Array>,
  now = new Date(),
): Promise<KeptScan> {
  const reader = pieces[Symbol.iterator]();
  const first = reader.next();
  if (first.done) throw new Error('The scan gave no JSON.');
  // The root comes second in the result, in its first piece (a path is at most 4,096 bytes).
  const literal = /\n {2}"root": ("(?:[^"\\]|\\.)*")/.exec(
    Buffer.from(first.value).toString('utf8'),
  )?.[1];
  if (literal === undefined) throw new Error('The scan’s JSON does not name its folder.');
  const savedAt = now.toISOString();
  const file = await writeKept(dir, JSON.parse(literal) as string, savedAt, (layout) =>
    documentOf(linesOf(reader, first.value), savedAt, layout),
  );
  const kept = await openIndexed(file);
  if (!kept) throw new Error('The kept scan could not be read back.');
  return kept;
}

/** A kept scan's groups as their text, in order, read from its document a megabyte at a time. */
async function* keptGroupTexts(kept: KeptScan): AsyncGenerator<string> {
  const handle = await open(kept.file, 'r');
  try {
    const now = await handle.stat();
    if (now.size !== kept.bytes || now.mtimeMs !== kept.mtimeMs) throw replacedScan();
    let index = 0;
    const chunk = 1024 * 1024;
    const end = kept.groupsAt[kept.groupCount]!;
    for (let at = kept.groupsAt[0]!; at < end && index < kept.groupCount;) {
      // Whole groups up to about a megabyte past `at` (one group larger than that alone).
      let last = index + 1;
      while (last < kept.groupCount && kept.groupsAt[last + 1]! - at <= chunk) last += 1;
      const upTo = kept.groupsAt[last]!;
      const buffer = await readBytes(handle, kept.file, at, upTo);
      for (; index < last; index += 1) {
        // Each group's text ends with the comma before the next, but the last.
        const text = buffer.toString(
          'utf8',
          kept.groupsAt[index]! - at,
          kept.groupsAt[index + 1]! - at,
        );
        yield text.endsWith(',') ? text.slice(0, -1) : text;
      }
      at = upTo;
    }
  } finally {
    await handle.close();
  }
}

/** The id a group's text starts with (the addon and this file write it first). */
function groupIdOf(text: string): string | null {
  const literal = /^\{"id":("(?:[^"\\]|\\.)*")/.exec(text)?.[1];
  return literal === undefined ? null : (JSON.parse(literal) as string);
}

/**
 * The groups of a kept scan whose ids are in `ids` (every group without it), in the scan's order,
 * read from its document without parsing the others (a group is told by the id its text starts
 * with).
 */
export async function keptGroupsById(
  kept: KeptScan,
  ids?: ReadonlySet<string>,
): Promise<DuplicateGroup[]> {
  const { DuplicateGroup } = await import('../../contract/space.js');
  const found: DuplicateGroup[] = [];
  for await (const text of keptGroupTexts(kept)) {
    const id = ids ? groupIdOf(text) : null;
    if (ids && id !== null && !ids.has(id)) continue;
    const group = DuplicateGroup.parse(JSON.parse(text));
    if (!ids || ids.has(group.id)) found.push(group);
  }
  return found;
}

/**
 * Keeps `kept` again with the groups named in `changed` replaced (null: dropped) and `figures`
 * for its own: the other groups are copied as their text, never parsed, so an apply on a scan
 * of millions of files costs one read and write of its document, not all of it in memory.
 * Refused (ENOSCAN) when a newer scan of the folder replaced the document.
 */
export async function rewriteKept(
  kept: KeptScan,
  changed: ReadonlyMap<string, DuplicateGroup | null>,
  figures: Omit<ScanResult, 'groups'>,
): Promise<void> {
  const { savedAt } = kept;
  await writeKept(path.dirname(kept.file), figures.root, savedAt, async function* (layout) {
    // The groups last, wherever the figures given have theirs (a kept scan's head has none).
    const { groups: _none, ...rest } = figures as ScanResult;
    const whole = JSON.stringify({ savedAt, result: { ...rest, groups: [] } });
    const head = whole.slice(0, -']}}'.length);
    const writer = groupWriter(layout, byteLength(head));
    yield head;
    for await (const text of keptGroupTexts(kept)) {
      // Read from its start, or (a group written with its id elsewhere) parsed for it.
      const id = groupIdOf(text) ?? (JSON.parse(text) as { id: string }).id;
      const replaced = changed.get(id);
      if (replaced === null) continue;
      const batch = writer.add(replaced === undefined ? text : JSON.stringify(replaced));
      if (batch) yield batch;
    }
    yield `${writer.end()}}}`;
  });
}

/** Whether scans can be kept (the folder for them made, or already there and the user's). */
export async function canKeepScans(dir: string): Promise<boolean> {
  return privateFolder(dir).then(
    () => true,
    () => false,
  );
}

/** Keeps `result` as the folder's last scan, with the index that pages its groups. */
export async function saveLastScan(
  dir: string,
  result: ScanResult,
  now = new Date(),
): Promise<void> {
  await keep(dir, { savedAt: now.toISOString(), result });
}

/** Bytes `start`…`end`-1 of an open file. */
async function readBytes(
  handle: FileHandle,
  file: string,
  start: number,
  end: number,
): Promise<Buffer> {
  const buffer = Buffer.alloc(end - start);
  let done = 0;
  while (done < buffer.length) {
    const { bytesRead } = await handle.read(buffer, done, buffer.length - done, start + done);
    if (bytesRead === 0) throw new Error(`${file} ended early`);
    done += bytesRead;
  }
  return buffer;
}

/** Bytes `start`…`end`-1 of a file as text. */
async function readRange(file: string, start: number, end: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    return (await readBytes(handle, file, start, end)).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** A kept scan by its index, or null when it has none that fits its document. */
async function openIndexed(file: string): Promise<KeptScan | null> {
  try {
    const index = JSON.parse(await readFile(indexFileOf(file), 'utf8')) as ScanIndex;
    const { groupsAt } = index;
    if (index.format !== 1 || !Array.isArray(groupsAt) || groupsAt.length === 0) return null;
    const { size, mtimeMs } = await stat(file);
    if (size !== index.bytes) return null;
    const { SavedScan } = await import('../../contract/space.js');
    const tailAt = index.tailAt ?? groupsAt.at(-1)! + 1;
    const before = await readRange(file, 0, groupsAt[0]!);
    const after = await readRange(file, tailAt, size);
    const saved = SavedScan.parse(JSON.parse(`${before}]${after}`));
    if (saved.savedAt !== index.savedAt || saved.result.groups.length > 0) return null;
    return {
      file,
      savedAt: saved.savedAt,
      head: saved.result,
      groupCount: groupsAt.length - 1,
      groupsAt,
      tailAt,
      bytes: size,
      mtimeMs,
    };
  } catch {
    return null;
  }
}

const replacedScan = () =>
  new PlumbError(
    'ENOSCAN',
    'That kept scan was replaced by a newer scan of its folder; open the Space view again.',
  );

/** Groups `start`…`end`-1 of a kept scan, read from its document and checked. */
export async function keptGroups(
  kept: KeptScan,
  start: number,
  end: number,
): Promise<DuplicateGroup[]> {
  const from = Math.max(0, Math.min(start, kept.groupCount));
  const to = Math.max(from, Math.min(end, kept.groupCount));
  if (to === from) return [];
  const now = await stat(kept.file).catch(() => null);
  if (now?.size !== kept.bytes || now.mtimeMs !== kept.mtimeMs) throw replacedScan();
  const text = await readRange(kept.file, kept.groupsAt[from]!, kept.groupsAt[to]!);
  const { DuplicateGroup } = await import('../../contract/space.js');
  // Between two groups is a comma: the range ends with one unless it reaches the last group.
  return DuplicateGroup.array().parse(JSON.parse(`[${text.replace(/,$/, '')}]`));
}

/**
 * A kept scan opened for paging. A document without a fitting index (kept by an older Plumb) is
 * read whole and kept again with one; null when missing or damaged (a rescan replaces it).
 */
async function openKept(file: string): Promise<KeptScan | null> {
  const indexed = await openIndexed(file);
  if (indexed) return indexed;
  const saved = await readSaved(file);
  if (!saved) return null;
  await keep(path.dirname(file), { ...saved, result: withRemovableTotal(saved.result) }).catch(
    () => undefined,
  );
  return openIndexed(file);
}

async function readSaved(file: string): Promise<SavedScan | null> {
  try {
    // The schema is loaded only here: a scan from the command line loads no zod.
    const { SavedScan } = await import('../../contract/space.js');
    return SavedScan.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    // Missing, from an older version, or damaged: as if never scanned (a rescan replaces it).
    return null;
  }
}

/** The kept scans' files, newest first. */
async function savedFilesNewestFirst(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json') && !n.endsWith('.index.json'));
  } catch {
    return [];
  }
  const dated = await Promise.all(
    names.map(async (n) => ({
      file: path.join(dir, n),
      at: (await stat(path.join(dir, n)).catch(() => null))?.mtimeMs ?? 0,
    })),
  );
  return dated.sort((a, b) => b.at - a.at).map(({ file }) => file);
}

/** Bytes read from the head of a kept scan to find its root (a path is at most 4,096 bytes). */
const headBytes = 64 * 1024;

async function readHead(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(headBytes), 0, headBytes, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The folder a kept scan is of. Read from the file's head: the root comes second in the result,
 * before the groups of a scan that may be 180 MB; a file written otherwise is read whole.
 */
async function savedRoot(file: string): Promise<string | null> {
  const head = await readHead(file).catch(() => null);
  if (head === null) return null;
  // The only "root" key of the document: in a path it would be escaped (\"root\").
  const literal = /"root":\s*("(?:[^"\\]|\\.)*")/.exec(head)?.[1];
  if (literal !== undefined) return JSON.parse(literal) as string;
  return (await readSaved(file))?.result.root ?? null;
}

/** The folder of the newest kept scan that `mayShow` accepts, or null. */
export async function newestScanRoot(
  dir: string,
  mayShow: (root: string) => Promise<boolean>,
): Promise<string | null> {
  for (const file of await savedFilesNewestFirst(dir)) {
    const root = await savedRoot(file);
    if (root !== null && (await mayShow(root))) return root;
  }
  return null;
}

/** The last scan of `folder`, or of any folder (the most recent) when none is given, for paging. */
export async function openLastScan(dir: string, folder?: string): Promise<KeptScan | null> {
  if (folder !== undefined) return openKept(path.join(dir, `${keyOf(folder)}.json`));
  for (const file of await savedFilesNewestFirst(dir)) {
    const kept = await openKept(file);
    if (kept) return kept;
  }
  return null;
}

/** The last scan of `folder` (or of any folder) whole, every group read. */
export async function loadLastScan(dir: string, folder?: string): Promise<SavedScan | null> {
  const kept = await openLastScan(dir, folder);
  if (!kept) return null;
  const groups = await keptGroups(kept, 0, kept.groupCount);
  return { savedAt: kept.savedAt, result: { ...kept.head, groups } };
}
