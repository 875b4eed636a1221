/**
 * No write to a copy is lost while `dedupe --method clone-rename` replaces it (issue 18): another
 * process appends to the copy at random instants around the replace, many times, or already has
 * it open for writing; every appended byte must be in the final file, and a copy that changed is
 * reported skipped, not cloned. Linux runs the same swap-and-verify path macOS and Windows use.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import type { DedupeAction } from '../../app/contract/space.js';
import { dedupeGroups } from '../../app/core/space/dedupe.js';
import { scanFolder } from '../../app/core/space/scan.js';
import { childEnv, plumbBin } from '../helpers/cli.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';
import { folderTimes, plainCopy, randomFile, readQuietly } from '../helpers/space-files.js';

const tries = Number(process.env.PLUMB_RACE_TRIES ?? 120);
const fileBytes = 256 * 1024;

/**
 * A separate process that appends to a file on command: after a busy-waited delay (so the instant
 * is precise), either opening it then (`open`) or through a descriptor it opened beforehand
 * (`hold`, as `exec 3>>file` does). It answers each command with one line.
 */
const appenderSource = `
const fs = require('node:fs');
let held = null;
const spin = (ms) => { const end = process.hrtime.bigint() + BigInt(Math.round(ms * 1e6)); while (process.hrtime.bigint() < end); };
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const c = JSON.parse(line);
  if (c.op === 'hold') held = fs.openSync(c.path, 'a');
  if (c.op === 'write') {
    spin(c.delayMs);
    const fd = held ?? fs.openSync(c.path, 'a');
    fs.writeSync(fd, c.marker);
    if (held === null) fs.closeSync(fd);
  }
  if (c.op === 'close' && held !== null) { fs.closeSync(held); held = null; }
  process.stdout.write(c.op + '\\n');
});`;

class Appender {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((line: string) => void)[] = [];

  constructor() {
    this.child = spawn(process.execPath, ['-e', appenderSource]);
    createInterface({ input: this.child.stdout }).on('line', (line) =>
      this.waiting.shift()?.(line),
    );
  }

  send(command: {
    op: 'hold' | 'write' | 'close';
    path?: string;
    delayMs?: number;
    marker?: string;
  }) {
    return new Promise<string>((resolve) => {
      this.waiting.push(resolve);
      this.child.stdin.write(`${JSON.stringify(command)}\n`);
    });
  }

  stop(): void {
    this.child.kill();
  }
}

function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith('.plumb-'));
}

describe(
  'clone-rename never loses a write made to a copy during the dedupe',
  { skip: loopSkipReason('xfs') },
  () => {
    let fs: MountedFs;
    let journalDir: string;
    before(() => {
      fs = mountLoopFs('xfs', { sizeBytes: 320 * 1024 * 1024, mkfsArgs: ['-m', 'reflink=1'] });
      journalDir = mkdtempSync(path.join(tmpdir(), 'plumb-race-journal-'));
    });
    after(() => {
      fs.unmount();
      rmSync(journalDir, { recursive: true, force: true });
    });

    test(`${tries} appends at random instants around the replace: 0 lost`, async () => {
      const appender = new Appender();
      const outcomes = new Map<string, number>();
      const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      // Where the replace is, in milliseconds from the start of the apply, learnt as the tries go:
      // a write that landed before the final checks moves the aim later, one that landed in the
      // clone after the replace moves it earlier, so the writes gather around the replace.
      let aimMs: number | null = null;
      const calibrationMs: number[] = [];
      let lost = 0;
      let clonedWhileOpen = 0;
      let leftBehind = 0;
      let folderMoved = 0;
      try {
        for (let i = -3; i < tries; i += 1) {
          const dir = path.join(fs.dir, `try-${i}`);
          const first = randomFile(path.join(dir, 'a.bin'), fileBytes);
          plainCopy(first, path.join(dir, 'b.bin'));
          const scan = await scanFolder({ path: dir });
          const group = scan.groups[0]!;
          const copy = group.files.find((f) => f.path !== group.keeper)!.path;
          const base = readQuietly(copy);
          const folderMtime = folderTimes(dir).mtimeNs;
          const marker = `append ${i}\n`;
          // The first three calibrate the timing; a third of the rest write through a descriptor
          // opened before the dedupe starts, the others open the copy at the instant they write.
          const mode = i < 0 ? 'none' : i % 3 === 0 ? 'hold' : 'open';
          if (mode === 'hold') await appender.send({ op: 'hold', path: copy });
          const delayMs = Math.max(0, (aimMs ?? 0) + (Math.random() - 0.5) * 3);
          const started = performance.now();
          const wrote =
            mode === 'none' ? null : appender.send({ op: 'write', path: copy, delayMs, marker });
          let action: DedupeAction | undefined;
          await dedupeGroups(scan.groups, {
            apply: true,
            method: 'clone-rename',
            journalDir,
            onAction: (a) => {
              action = a;
              if (i < 0) calibrationMs.push(performance.now() - started);
            },
          });
          await wrote;
          if (mode === 'hold') await appender.send({ op: 'close' });
          assert.ok(action, `try ${i}: no outcome`);
          assert.notEqual(action.status, 'failed', `try ${i}: ${action.reason}`);
          if (mode === 'none') {
            if (i === -1) aimMs = Math.min(...calibrationMs) * 0.8;
            continue;
          }
          if (mode === 'open' && action.status === 'done') aimMs! -= 1;
          if (/since the scan|differ/.test(action.reason ?? '')) aimMs! += 1;
          const final = readQuietly(copy);
          const expected = Buffer.concat([base, Buffer.from(marker)]);
          // A lost write; a copy held open for writing (so written to after the dedupe began)
          // reported cloned; temporary files left; the folder's time moved.
          if (!final.equals(expected)) lost += 1;
          if (mode === 'hold' && action.status === 'done') clonedWhileOpen += 1;
          if (leftovers(dir).length > 0) leftBehind += 1;
          if (folderTimes(dir).mtimeNs !== folderMtime) folderMoved += 1;
          count(`${mode}: ${action.status}${action.reason ? ` (${action.reason})` : ''}`);
          rmSync(dir, { recursive: true });
        }
      } finally {
        appender.stop();
      }
      const report = [...outcomes].map(([key, n]) => `  ${n} × ${key}`).join('\n');
      const summary =
        `${tries} tries: ${lost} lost writes, ${clonedWhileOpen} held open yet cloned, ` +
        `${leftBehind} with temporary files left, ${folderMoved} with the folder time moved`;
      console.log(`${summary}; outcomes:\n${report}`);
      assert.deepEqual(
        { lost, clonedWhileOpen, leftBehind, folderMoved },
        { lost: 0, clonedWhileOpen: 0, leftBehind: 0, folderMoved: 0 },
        `${summary}:\n${report}`,
      );
      assert.deepEqual(
        readdirSync(journalDir).filter((n) => n.endsWith('.jsonl')),
        [],
      );
    });

    test('two applies at once on one volume each report only the space they freed', async () => {
      const block = 4096;
      const trees = [
        { dir: path.join(fs.dir, 'both-1'), copies: 2, bytes: 3 * 1024 * 1024 },
        { dir: path.join(fs.dir, 'both-2'), copies: 5, bytes: 1024 * 1024 },
      ];
      const scans = await Promise.all(
        trees.map(async ({ dir, copies, bytes }) => {
          const first = randomFile(path.join(dir, 'a.bin'), bytes);
          for (let c = 0; c < copies; c += 1) plainCopy(first, path.join(dir, `copy-${c}.bin`));
          return scanFolder({ path: dir });
        }),
      );
      const reports = await Promise.all(
        scans.map((scan) => dedupeGroups(scan.groups, { apply: true, journalDir })),
      );
      for (const [i, report] of reports.entries()) {
        const { copies, bytes } = trees[i]!;
        assert.equal(report.counts.done, copies);
        const freed = report.measuredFreedBytes!;
        assert.ok(
          Math.abs(freed - copies * bytes) <= block * (copies + 1),
          `apply ${i + 1} freed ${copies * bytes} bytes but reported ${freed}`,
        );
      }
    });

    test('a writer that already has the copy open (exec 3>>b) keeps its later writes', () => {
      const dir = path.join(fs.dir, 'held');
      const first = randomFile(path.join(dir, 'a.bin'), fileBytes);
      const copy = plainCopy(first, path.join(dir, 'b.bin'));
      utimesSync(first, new Date('2020-01-01'), new Date('2020-01-01')); // older: the keeper
      const base = readQuietly(copy);
      const stateDir = mkdtempSync(path.join(tmpdir(), 'plumb-race-state-'));
      try {
        const run = spawnSync(
          'bash',
          [
            '-c',
            'exec 3>>"$1"; "$2" "$3" space dedupe "$4" --apply --method clone-rename; echo more >&3',
            'bash',
            copy,
            process.execPath,
            plumbBin,
            dir,
          ],
          { encoding: 'utf8', env: childEnv({ PLUMB_STATE_DIR: stateDir }) },
        );
        assert.equal(run.status, 0, run.stderr);
        assert.match(run.stdout, /skip +\S*b\.bin: another program has it open/);
        assert.deepEqual(readQuietly(copy), Buffer.concat([base, Buffer.from('more\n')]));
      } finally {
        rmSync(stateDir, { recursive: true, force: true });
      }
    });
  },
);
