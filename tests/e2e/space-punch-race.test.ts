/**
 * No write is lost while zero blocks are punched into holes (issue 24). Another process writes
 * into one of a file's zero runs at a random instant during `punchZeros(file, apply)`, 1,000
 * times (PLUMB_RACE_TRIES to change), opening the file then or through a descriptor it opened
 * before: every written byte must be in the file afterwards. A punch that read a run as zeros and
 * punched it after the write landed would have lost it. Runs and places are drawn at random
 * (seeded: the seed is printed, PLUMB_TEST_SEED replays it); the instants are spread over the
 * duration of an apply, measured first, on the monotonic clock both processes share.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { newSeed, seededRandom } from '../../app/core/bench/seeded-random.js';
import { punchZeros, type PunchMethod } from '../../app/core/space/sparse.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { readQuietly } from '../helpers/space-files.js';

const tries = Number(process.env.PLUMB_RACE_TRIES ?? 1000);
const seed = Number(process.env.PLUMB_TEST_SEED ?? newSeed());
console.log(`# seed ${seed} (replay with PLUMB_TEST_SEED=${seed})`);

const pageBytes = 4096;
const calibrations = 20;
/** Time for a command to reach the writer before the instant it names. */
const leadNs = 3_000_000n;

/**
 * A separate process that writes a marker into a file on command, at an instant of the monotonic
 * clock both processes share (busy-waited, so it is precise): opening the file then (`write`),
 * which waits while a lease holds it, or through a descriptor it opened beforehand (`hold`). It
 * answers each command with one line.
 */
const writerSource = `
const fs = require('node:fs');
let held = null;
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const c = JSON.parse(line);
  if (c.op === 'hold') held = fs.openSync(c.path, 'r+');
  if (c.op === 'write') {
    const at = BigInt(c.atNs);
    while (process.hrtime.bigint() < at);
    const fd = held ?? fs.openSync(c.path, 'r+');
    fs.writeSync(fd, Buffer.from(c.marker), 0, c.marker.length, c.offset);
    if (held === null) fs.closeSync(fd);
  }
  if (c.op === 'close' && held !== null) { fs.closeSync(held); held = null; }
  process.stdout.write(c.op + '\\n');
});`;

class Writer {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((line: string) => void)[] = [];

  constructor() {
    this.child = spawn(process.execPath, ['-e', writerSource]);
    createInterface({ input: this.child.stdout }).on('line', (line) =>
      this.waiting.shift()?.(line),
    );
  }

  send(command: {
    op: 'hold' | 'write' | 'close';
    path?: string;
    atNs?: string;
    offset?: number;
    marker?: string;
  }): Promise<string> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.stdin.write(`${JSON.stringify(command)}\n`);
    });
  }

  stop(): void {
    this.child.kill();
  }
}

/** Random data with 1 to 4 runs of zeros (whole pages, so whole blocks on any file system). */
function fileWithZeroRuns(file: string, random: () => number): [number, number][] {
  const pages = 32 + Math.floor(random() * 32);
  const data = Buffer.alloc(pages * pageBytes);
  for (let at = 0; at < data.length; at += 4) data.writeUInt32LE((random() * 2 ** 32) >>> 0, at);
  const runs: [number, number][] = [];
  const count = 1 + Math.floor(random() * 4);
  for (let r = 0; r < count; r += 1) {
    const length = (2 + Math.floor(random() * 6)) * pageBytes;
    const start = Math.floor(random() * (pages - length / pageBytes)) * pageBytes;
    data.fill(0, start, start + length);
    runs.push([start, length]);
  }
  writeFileSync(file, data);
  return runs;
}

/** Writes at random instants of `tries` applies of `method` in `dir`; fails on any byte lost. */
async function race(dir: string, method: PunchMethod, journalDir: string): Promise<void> {
  const random = seededRandom(seed);
  const writer = new Writer();
  const outcomes = new Map<string, number>();
  const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  // Where the punch is, learnt from the first applies: from the end of the read for zeros (its
  // last chunk) to the end of the apply, in milliseconds from its start.
  const gaps: [number, number][] = [];
  let gap: [number, number] = [0, 0];
  let lostBytes = 0;
  let lostTries = 0;
  let punchedWhileHeld = 0;
  let leftBehind = 0;
  try {
    for (let i = -calibrations; i < tries; i += 1) {
      const file = path.join(dir, `try-${i}.bin`);
      const runs = fileWithZeroRuns(file, random);
      const base = readQuietly(file);
      const [runStart, runLength] = runs[Math.floor(random() * runs.length)]!;
      const marker = `write ${i} `.padEnd(16, '#');
      const offset = runStart + Math.floor(random() * (runLength - marker.length));
      // The first ones time the apply; a quarter of the rest write through a descriptor opened
      // before the apply begins, the others open the file at the instant they write.
      const mode = i < 0 ? 'none' : random() < 0.25 ? 'hold' : 'write';
      if (mode === 'hold') await writer.send({ op: 'hold', path: file });
      // The write is sent ahead with its instant, drawn across the gap and a quarter of it on
      // either side; the apply starts at a set instant after it.
      const startNs = process.hrtime.bigint() + leadNs;
      const margin = (gap[1] - gap[0]) / 4;
      const atMs = gap[0] - margin + random() * (gap[1] - gap[0] + 2 * margin);
      const atNs = (startNs + BigInt(Math.round(Math.max(0, atMs) * 1e6))).toString();
      const wrote =
        mode === 'none' ? null : writer.send({ op: 'write', path: file, atNs, offset, marker });
      while (process.hrtime.bigint() < startNs);
      let readEndNs = startNs;
      const onRead = () => {
        readEndNs = process.hrtime.bigint();
      };
      let punchedBytes = 0;
      const outcome = await punchZeros(file, true, { method, journalDir, onRead }).then(
        (report) => {
          punchedBytes = report.punchedBytes;
          return report.stopped ? `stopped: ${report.stopped}` : 'done';
        },
        (error: Error & { code?: string }) => `error ${error.code ?? error.message}`,
      );
      await wrote;
      if (mode === 'hold') await writer.send({ op: 'close' });
      if (mode === 'none') {
        const ms = (ns: bigint) => Number(ns - startNs) / 1e6;
        gaps.push([ms(readEndNs), ms(process.hrtime.bigint())]);
        // The median gap of the later applies (the first ones also load the addon and compile).
        if (i === -1) {
          const settled = gaps.slice(calibrations / 2);
          const median = (values: number[]) =>
            values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
          gap = [median(settled.map((g) => g[0])), median(settled.map((g) => g[1]))];
          console.log(
            `${method}: the punch runs from ${gap[0].toFixed(2)} to ${gap[1].toFixed(2)} ms`,
          );
        }
        rmSync(file);
        continue;
      }
      const expected = Buffer.from(base);
      expected.write(marker, offset);
      const final = readQuietly(file);
      if (!final.equals(expected)) {
        lostTries += 1;
        for (let b = 0; b < expected.length; b += 1) if (final[b] !== expected[b]) lostBytes += 1;
      }
      // clone-rename punches its clone even when it then leaves the file as it was.
      const changed = outcome === 'done' || (method === 'guarded-in-place' && punchedBytes > 0);
      if (mode === 'hold' && changed) punchedWhileHeld += 1;
      if (readdirSync(dir).some((name) => name.startsWith('.plumb-'))) leftBehind += 1;
      count(`${mode}: ${outcome}`);
      rmSync(file);
    }
  } finally {
    writer.stop();
  }
  const report = [...outcomes].map(([key, n]) => `  ${n} × ${key}`).join('\n');
  const summary =
    `${method}: ${tries} tries (seed ${seed}): ${lostBytes} bytes lost ` +
    `in ${lostTries} tries, ${punchedWhileHeld} punched while another program held the file, ` +
    `${leftBehind} with temporary files left`;
  console.log(`${summary}; outcomes:\n${report}`);
  assert.deepEqual(
    { lostBytes, lostTries, punchedWhileHeld, leftBehind },
    { lostBytes: 0, lostTries: 0, punchedWhileHeld: 0, leftBehind: 0 },
    `${summary}:\n${report}`,
  );
  // Writes reached the punch itself, not only the time around it: in place, an opener that
  // stopped the guarded punch (2 to 4 in 100 here); by clone, a write after the clone was made,
  // found by its checks (about 7 in 100).
  const caught =
    method === 'guarded-in-place'
      ? /^write: stopped: another program opened/
      : /^write: stopped: it changed while (the holes were being made|it was being replaced)/;
  if (tries >= 500)
    assert.ok(
      [...outcomes.keys()].some((key) => caught.test(key)),
      `no write landed during a punch:\n${report}`,
    );
}

describe('punching holes never loses a write made during it', () => {
  const journalDir = mkdtempSync(path.join(tmpdir(), 'plumb-punch-journal-'));
  after(() => rmSync(journalDir, { recursive: true, force: true }));

  for (const [method, fsType, mkfsArgs] of [
    ['guarded-in-place', 'ext4', []],
    ['clone-rename', 'xfs', ['-m', 'reflink=1']],
  ] as const) {
    describe(`${method} on ${fsType}`, { skip: loopSkipReason(fsType) }, () => {
      let fs: MountedFs;
      before(() => {
        fs = mountLoopFs(fsType, { sizeBytes: 320 * 1024 * 1024, mkfsArgs: [...mkfsArgs] });
      });
      after(() => fs.unmount());

      test(`${tries} writes into zero runs at random instants of the apply: 0 bytes lost`, async () => {
        await race(fs.dir, method, journalDir);
        const journals = readdirSync(journalDir).filter((name) => name.endsWith('.jsonl'));
        assert.deepEqual(journals, [], 'every replace finished its journal');
      });
    });
  }
});
