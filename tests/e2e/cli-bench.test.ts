import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { statfsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ResultDocument } from '../../app/contract/bench-result.js';
import type { VolumeInfo } from '../../app/contract/volume.js';
import { builtinPlan } from '../../app/core/bench/builtin-plans.js';
import { estimatePlan, typicalRates } from '../../renderer/src/screens/bench/estimates.js';
import { plumbBin, runPlumb } from '../helpers/cli.js';
import { loopSkipReason, mountLoopFs, type MountedFs } from '../helpers/loopfs.js';

let work: string;
let env: NodeJS.ProcessEnv;
before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'plumb-bench-e2e-'));
  env = { PLUMB_DATA_DIR: path.join(work, 'data') };
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

async function emptyFolder(name: string): Promise<string> {
  const dir = path.join(work, name);
  await import('node:fs/promises').then((fs) => fs.mkdir(dir));
  return dir;
}

describe('plumb bench (real disk, tiny scale)', () => {
  it('runs the series plan, prints the summary, stores the result and leaves no files', async () => {
    const target = await emptyFolder('series');
    const out = path.join(work, 'series.json');
    const result = runPlumb(
      ['bench', target, '--plan', 'series', '--scale', '0.001', '--reserve', '1GB', '--json', out],
      { env },
    );
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /plan series \(seed \d+\), quick run \(0\.1 % of full size\)/);
    assert.match(result.stdout, /Theil–Sen/);
    assert.match(result.stdout, /small-files/);
    assert.match(result.stderr, /write 42\/42/, 'one plain line per file when not a terminal');
    const document = ResultDocument.parse(JSON.parse(await readFile(out, 'utf8')));
    assert.equal(document.files.length, 84);
    assert.equal(document.summary.write.count, 42);
    assert.ok(document.files.every((f) => f.seconds > 0));
    assert.deepEqual(await readdir(target), []);
    const listed = runPlumb(['results', 'list', '--json'], { env });
    assert.ok((JSON.parse(listed.stdout) as { id: string }[]).some((i) => i.id === document.id));
  });

  it('--json - prints the document, and plumb read times a folder without writing to it', async () => {
    const target = await emptyFolder('old-files');
    await writeFile(path.join(target, 'a.bin'), Buffer.alloc(1 << 20, 7));
    await writeFile(path.join(target, 'b.bin'), Buffer.alloc(3 << 20, 9));
    const result = runPlumb(['read', target, '--json', '-'], { env });
    assert.equal(result.status, 0, result.stderr);
    const document = ResultDocument.parse(JSON.parse(result.stdout));
    assert.deepEqual(
      document.files.map((f) => [f.phase, f.bytes]),
      [
        ['read', 1 << 20],
        ['read', 3 << 20],
      ],
    );
    assert.deepEqual((await readdir(target)).sort(), ['a.bin', 'b.bin']);
  });

  it('a scaled sustained run with no total shrinks the default total too, as the UI estimates it', async () => {
    const target = await emptyFolder('sustained-default');
    const scale = 0.0001;
    // The built-in sustained plan without its recovery probe (30 s idles).
    const plan = path.join(work, 'sustained-no-probe.json');
    const builtin = builtinPlan('sustained')!;
    await writeFile(plan, JSON.stringify({ ...builtin, recovery: null }));
    const info = runPlumb(['info', target, '--json'], { env });
    assert.equal(info.status, 0, info.stderr);
    const volume = JSON.parse(info.stdout) as VolumeInfo;
    const out = path.join(work, 'sustained-default.json');
    const result = runPlumb(
      ['bench', target, '--plan', plan, '--scale', String(scale), '--json', out],
      { env },
    );
    assert.equal(result.status, 0, result.stderr);
    const document = ResultDocument.parse(JSON.parse(await readFile(out, 'utf8')));
    const total = Number(document.plan.totalBytes);
    const unscaled = estimatePlan(builtin, { scale: 1 }, volume, typicalRates(volume)).writeBytes;
    const estimated = estimatePlan(builtin, { scale }, volume, typicalRates(volume)).writeBytes;
    // Free space moves a little between `plumb info` and the run: agree within 1 %.
    assert.ok(
      Math.abs(total - estimated) <= 0.01 * estimated,
      `ran ${total}, UI said ${estimated}`,
    );
    assert.ok(Math.abs(total - unscaled * scale) <= 0.01 * unscaled * scale + 4096);
    const written = document.files.reduce((sum, f) => sum + f.bytes, 0);
    assert.ok(Math.abs(written - total) <= 4096, `wrote ${written} of ${total}`);
    assert.deepEqual(await readdir(target), []);
  });

  it('refuses bad input with exit 2 and one line', async () => {
    const target = await emptyFolder('bad');
    for (const args of [
      ['bench'],
      ['bench', target, '--scale', '3'],
      ['bench', target, '--plan', 'fastest'],
      ['bench', target, '--total', '10GB'],
      ['bench', target, '--reserve', 'lots'],
    ]) {
      const result = runPlumb(args, { env });
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    }
    const missing = runPlumb(['bench', path.join(work, 'nope'), '--scale', '0.001'], { env });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /No such folder/);
  });

  it('Ctrl-C (SIGINT) cancels cleanly: exit 1, no test files left, no result stored', async () => {
    const target = await emptyFolder('sigint');
    const dataDir = path.join(work, 'sigint-data');
    const child = spawn(
      process.execPath,
      [plumbBin, 'bench', target, '--plan', 'standard', '--scale', '0.01', '--reserve', '1GB'],
      { env: { ...process.env, PLUMB_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no progress: ${stderr}`)), 60_000);
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/write 5\/160/.test(stderr)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const folders = (await readdir(target)).filter((n) => n.startsWith('plumb-test-'));
    assert.equal(folders.length, 1, 'the run was writing into its test folder');
    child.kill('SIGINT');
    const code = await exited;
    assert.equal(code, 1, stderr);
    assert.match(stderr, /Cancelled; the test files were removed/);
    assert.deepEqual(await readdir(target), []);
    await assert.rejects(readdir(path.join(dataDir, 'results')), { code: 'ENOENT' });
  });
});

const loopSkip = loopSkipReason('ext4');
describe('the free-space guard on a small file system', { skip: loopSkip }, () => {
  let fs: MountedFs | undefined;
  before(() => {
    fs = mountLoopFs('ext4', { sizeBytes: 64 * 1024 * 1024 });
  });
  after(() => fs?.unmount());

  it('refuses a run that would cross the default reserve, before writing anything', async () => {
    const free = () => statfsSync(fs!.dir).bavail * statfsSync(fs!.dir).bsize;
    const before = free();
    const result = runPlumb(['bench', fs!.dir, '--plan', 'series', '--scale', '0.001'], { env });
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /may be used here\. Plumb keeps 1\.00 GB free here\. What would work: /,
    );
    assert.match(result.stderr, /--reserve to change the guard\.\n$/, 'the CLI names its flags');
    assert.equal(free(), before, 'nothing was written');
    assert.deepEqual(
      (await readdir(fs!.dir)).filter((n) => n.startsWith('plumb-test-')),
      [],
    );
  });

  it('a sustained run bigger than the disk rotates its files and never crosses the reserve', async () => {
    const reserve = 16e6;
    const stats = () => statfsSync(fs!.dir);
    let lowest = Number.POSITIVE_INFINITY;
    const watch = setInterval(() => {
      const s = stats();
      lowest = Math.min(lowest, s.bavail * s.bsize);
    }, 2);
    const plan = path.join(work, 'rotate.json');
    await writeFile(
      plan,
      JSON.stringify({
        schema: 'plumb.plan/1',
        name: 'rotate',
        kind: 'sustained',
        minFileBytes: 400e3,
        maxFileBytes: 4e6,
      }),
    );
    const child = spawn(
      process.execPath,
      [
        plumbBin,
        'bench',
        fs!.dir,
        '--plan',
        plan,
        '--total',
        '200MB',
        '--reserve',
        '16MB',
        '--json',
        '-',
      ],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearInterval(watch);
    assert.equal(code, 0, stderr);
    const document = ResultDocument.parse(JSON.parse(stdout));
    const written = document.files.reduce((sum, f) => sum + f.bytes, 0);
    assert.ok(written >= 200e6, `wrote ${written}`);
    assert.ok(
      (document.notices ?? []).some((n) => n.startsWith('Rotated')),
      JSON.stringify(document.notices),
    );
    assert.ok(lowest >= reserve - 4096, `free space fell to ${lowest}`);
    assert.deepEqual(
      (await readdir(fs!.dir)).filter((n) => n.startsWith('plumb-test-')),
      [],
    );
  });
});
