/**
 * An output path is written as what it is (issue 24): `--json`, `--csv` and `--pdf OUT` to a
 * regular file (replaced atomically), to a symbolic link (the link stays, its target gets the
 * output), to a FIFO (streamed to its reader, still a FIFO after), to `-` and `/dev/stdout`
 * (standard output carries the output and nothing else); a folder, a missing folder and a socket
 * get one line and nothing written. The files beside each output are untouched throughout.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ResultDocument } from '../../app/contract/bench-result.js';
import { chromiumMissingReason, chromiumPath } from '../helpers/chromium.js';
import { plumbBin, runPlumb } from '../helpers/cli.js';

interface Finished {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs plumb without waiting on it, so the test can read a FIFO it writes. */
function startPlumb(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<Finished> {
  const child = spawn(process.execPath, [plumbBin, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(stdout), stderr })),
  );
}

/**
 * Reads a FIFO to its end in another process, as a user's `cat fifo` would. Once the writer has
 * exited, the reader gets a few seconds more: a FIFO replaced by a file would keep it waiting.
 */
async function readFifo(fifo: string, writer: Promise<Finished>): Promise<[Buffer, Finished]> {
  const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  reader.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const read = new Promise<Buffer>((resolve) =>
    reader.on('close', () => resolve(Buffer.concat(chunks))),
  );
  const run = await writer;
  const timer = setTimeout(() => reader.kill(), 5000);
  const bytes = await read;
  clearTimeout(timer);
  return [bytes, run];
}

/** Name → sha256 and mtime of every entry of a folder (links as links), to see nothing else moved. */
function folderState(dir: string, except: string[] = []): Record<string, string> {
  const state: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    if (except.includes(name)) continue;
    const file = path.join(dir, name);
    const info = lstatSync(file);
    state[name] = info.isSymbolicLink()
      ? `link → ${readlinkSync(file)}`
      : info.isFile()
        ? `${createHash('sha256').update(readFileSync(file)).digest('hex')} ${info.mtimeMs}`
        : `${info.isFIFO() ? 'fifo' : 'other'} ${info.mode}`;
  }
  return state;
}

type Flag = '--json' | '--csv' | '--pdf';

const posixSkip =
  process.platform === 'win32' ? 'FIFOs, mkfifo and /dev/stdout are POSIX facilities' : undefined;

describe('plumb writes each output path as what it is', { skip: posixSkip }, () => {
  let work: string;
  let env: NodeJS.ProcessEnv;
  let resultFile: string;
  let result: ResultDocument;
  const pdfSkip = chromiumMissingReason();
  const flags: Flag[] = ['--json', '--csv', '--pdf'];

  before(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'plumb-outputs-'));
    env = { PLUMB_DATA_DIR: path.join(work, 'data') };
    const target = path.join(work, 'target');
    mkdirSync(target);
    resultFile = path.join(work, 'result.json');
    const bench = runPlumb(
      ['bench', target, '--plan', 'standard', '--scale', '0.001', '--json', resultFile],
      { env },
    );
    assert.equal(bench.status, 0, bench.stderr);
    result = JSON.parse(readFileSync(resultFile, 'utf8')) as ResultDocument;
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  /** `report` with one output, and a browser for the PDF. */
  function reportArgs(flag: Flag, out: string): string[] {
    return [
      'report',
      resultFile,
      flag,
      out,
      ...(flag === '--pdf' ? ['--browser', chromiumPath()!] : []),
    ];
  }

  /** Checks that `bytes` is the output `flag` gives for the result. */
  function assertOutput(flag: Flag, bytes: Buffer, where: string): void {
    if (flag === '--json') assert.deepEqual(JSON.parse(bytes.toString()), result, where);
    if (flag === '--csv') {
      // Comment lines (a quick run, the headline), then the header and a line per file; after a
      // blank line, the rate samples the chart draws (resultCsv).
      const [files, samples] = bytes.toString().trim().split('\n\n');
      const lines = files!.split('\n').filter((line) => !line.startsWith('#'));
      if (result.samplesByPhase) assert.match(samples ?? '', /^# Rate samples/, where);
      assert.equal(lines[0], 'phase,bytes,seconds,cumulativeBytes,t,temperatureC', where);
      assert.equal(lines.length, result.files.length + 1, where);
    }
    if (flag === '--pdf') {
      assert.equal(bytes.subarray(0, 5).toString(), '%PDF-', where);
      assert.match(bytes.subarray(-8).toString(), /%%EOF\s*$/, where);
    }
  }

  /** A folder with files that must not change, for one case. */
  function caseFolder(name: string): string {
    const dir = path.join(work, name);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'beside.txt'), 'a file next to the output\n');
    writeFileSync(path.join(dir, 'beside.json'), '{"keep": true}\n');
    return dir;
  }

  for (const flag of flags) {
    const skip = flag === '--pdf' ? pdfSkip : undefined;
    const name = flag.slice(2);

    it(`${flag} to a regular file replaces it, and only it`, { skip }, () => {
      const dir = caseFolder(`${name}-file`);
      const out = path.join(dir, `out.${name}`);
      writeFileSync(out, 'the previous output');
      const output = [`out.${name}`];
      const before = folderState(dir, output);
      const run = runPlumb(reportArgs(flag, out), { env });
      assert.equal(run.status, 0, run.stderr);
      assertOutput(flag, readFileSync(out), out);
      assert.deepEqual(folderState(dir, output), before, 'the others untouched, no temporary left');
    });

    it(`${flag} to a symbolic link writes its target and keeps the link`, { skip }, () => {
      const dir = caseFolder(`${name}-link`);
      const elsewhere = caseFolder(`${name}-link-target`);
      const real = path.join(elsewhere, `real.${name}`);
      writeFileSync(real, 'the previous output');
      const link = path.join(dir, `out.${name}`);
      symlinkSync(path.relative(dir, real), link);
      const dangling = path.join(dir, `new.${name}`);
      symlinkSync(`../${name}-link-target/made.${name}`, dangling);
      const outputs = [`real.${name}`, `made.${name}`];
      const before = { here: folderState(dir), there: folderState(elsewhere, outputs) };

      const run = runPlumb(reportArgs(flag, link), { env });
      assert.equal(run.status, 0, run.stderr);
      assert.ok(lstatSync(link).isSymbolicLink(), 'the link is still a link');
      assertOutput(flag, readFileSync(real), real);
      const again = runPlumb(reportArgs(flag, dangling), { env });
      assert.equal(again.status, 0, again.stderr);
      assertOutput(flag, readFileSync(path.join(elsewhere, `made.${name}`)), 'a link to nothing');

      assert.deepEqual(folderState(dir), before.here, 'the links and files beside are untouched');
      assert.deepEqual(
        folderState(elsewhere, outputs),
        before.there,
        "the target's folder holds no temporary",
      );
    });

    it(`${flag} to a FIFO streams to its reader and leaves a FIFO`, { skip }, async () => {
      const dir = caseFolder(`${name}-fifo`);
      const fifo = path.join(dir, `out.${name}`);
      assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
      const before = folderState(dir);
      // The writer starts first and waits for the reader, as `echo > fifo` does.
      const writer = startPlumb(reportArgs(flag, fifo), env);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [read, run] = await readFifo(fifo, writer);
      assert.equal(run.status, 0, run.stderr);
      assertOutput(flag, read, 'what the reader got');
      assert.ok(statSync(fifo).isFIFO(), 'still a FIFO');
      assert.deepEqual(folderState(dir), before);
    });

    for (const stdoutName of ['-', '/dev/stdout']) {
      it(`${flag} ${stdoutName} puts the output alone on standard output`, { skip }, async () => {
        const dir = caseFolder(`${name}-stdout-${stdoutName === '-' ? 'dash' : 'dev'}`);
        const before = folderState(dir);
        const devStdout = readlinkSync('/dev/stdout');
        let run: Finished;
        try {
          run = await startPlumb(reportArgs(flag, stdoutName), env, dir);
        } finally {
          // As root a writer that renames over /dev/stdout replaces the machine's own: put it back.
          if (!lstatSync('/dev/stdout').isSymbolicLink()) {
            rmSync('/dev/stdout');
            symlinkSync(devStdout, '/dev/stdout');
            assert.fail('/dev/stdout was replaced by a file (now restored)');
          }
        }
        assert.equal(run.status, 0, run.stderr);
        assertOutput(flag, run.stdout, 'standard output');
        assert.match(run.stderr, new RegExp(`^Wrote ${stdoutName}`), 'what was done, on stderr');
        assert.deepEqual(folderState(dir), before, 'no file named - was made');
      });
    }
  }

  it('bench --json to a FIFO streams the result document to its reader', async () => {
    const dir = caseFolder('bench-fifo');
    const fifo = path.join(dir, 'result.json');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
    const target = path.join(work, 'target');
    const writer = startPlumb(
      ['bench', target, '--plan', 'standard', '--scale', '0.001', '--json', fifo],
      env,
    );
    const [read, run] = await readFifo(fifo, writer);
    assert.equal(run.status, 0, run.stderr);
    const document = JSON.parse(read.toString()) as ResultDocument;
    assert.match(run.stdout.toString(), new RegExp(`Saved as ${document.id} in .* and ${fifo}`));
    assert.ok(statSync(fifo).isFIFO(), 'still a FIFO');
  });

  it('refuses a folder, a missing folder and a socket in one line, before any work', async () => {
    const dir = caseFolder('refused');
    const socket = path.join(dir, 'socket');
    const server = createServer().listen(socket);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const results = () => readdirSync(path.join(env.PLUMB_DATA_DIR!, 'results')).length;
      const stored = results();
      const cases = [
        { out: dir, says: /is a folder\. Give a file name/ },
        {
          out: path.join(dir, 'no', 'such', 'out.json'),
          says: /the folder .*no\/such does not exist/,
        },
        { out: socket, says: /is a socket\. Give a file, a FIFO, a character device or -/ },
      ];
      const before = folderState(dir);
      for (const { out, says } of cases) {
        for (const args of [
          ['report', resultFile, '--json', out],
          ['bench', path.join(work, 'target'), '--plan', 'standard', '--json', out],
        ]) {
          const run = runPlumb(args, { env });
          assert.equal(run.status, 1, `${args.join(' ')}: ${run.stderr}`);
          assert.match(run.stderr, says);
          assert.equal(run.stderr.trim().split('\n').length, 1, `one line: ${run.stderr}`);
          assert.equal(run.stdout, '');
        }
      }
      assert.equal(results(), stored, 'no benchmark ran');
      assert.deepEqual(folderState(dir), before);
      assert.ok(!readdirSync(dir).includes('no'), 'no folder was made');
    } finally {
      server.close();
    }
  });
});
