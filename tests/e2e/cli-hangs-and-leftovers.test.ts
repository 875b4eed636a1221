import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { plumbBin, runPlumb } from '../helpers/cli.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'plumb-hangs-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Runs plumb with a deadline: a command that hangs comes back with status null. */
function runWithin(args: string[], seconds: number, cwd = root) {
  const result = spawnSync(process.execPath, [plumbBin, ...args], {
    encoding: 'utf8',
    cwd,
    timeout: seconds * 1000,
    killSignal: 'SIGKILL',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('a FIFO given as a file is refused at once by analyze, plan and space sparse --copy-to', () => {
  const fifo = path.join(root, 'pipe.csv');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  for (const args of [
    ['analyze', fifo],
    ['plan', fifo],
    ['space', 'sparse', fifo, '--copy-to', path.join(root, 'copy-of-pipe')],
  ]) {
    const result = runWithin(args, 20);
    assert.equal(result.status, 1, `${args.join(' ')} hung or failed wrongly: ${result.stderr}`);
    assert.match(
      result.stderr,
      /^plumb \w+: .*pipe\.csv is a pipe \(FIFO\), not a regular file; give a file\.\n$/,
    );
  }
  assert.equal(existsSync(path.join(root, 'copy-of-pipe')), false);
});

/** A 0600 file of `mib` MiB of data in a folder other users may enter. */
function secretFile(dir: string, mib: number): string {
  mkdirSync(dir, { recursive: true });
  chmodSync(root, 0o755);
  chmodSync(dir, 0o755);
  const file = path.join(dir, 'secret.bin');
  const block = Buffer.alloc(1 << 20, 0x5a);
  writeFileSync(file, Buffer.concat(Array.from({ length: mib }, () => block)), { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

const isTemp = (name: string) => /^\.plumb-(clone|copy)-/.test(name);

test('space sparse --copy-to: its temporary is 0600 from creation, and Ctrl-C stops the copy and removes it', async () => {
  const dir = path.join(root, 'copy-cancel');
  const source = secretFile(dir, 512);
  const target = path.join(dir, 'copy.bin');
  const child = spawn(
    process.execPath,
    [plumbBin, 'space', 'sparse', source, '--copy-to', target],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Catch the temporary while the copy runs: its mode, and whether another user can read it.
  let temp: string | undefined;
  for (let tries = 0; tries < 4000 && temp === undefined; tries += 1) {
    temp = readdirSync(dir).find(isTemp);
    if (temp === undefined) await new Promise((resolve) => setTimeout(resolve, 2));
  }
  assert.ok(temp, 'the copy made no temporary file');
  const mode = statSync(path.join(dir, temp)).mode & 0o777;
  child.kill('SIGINT');
  assert.equal(mode, 0o600, `temporary was ${mode.toString(8)}`);
  const code = await Promise.race([
    exited,
    new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 60_000)),
  ]);
  if (code === 'hung') child.kill('SIGKILL');
  assert.equal(code, 1, `Ctrl-C did not cancel the copy (exit ${String(code)}): ${stderr}`);
  assert.match(stderr, /^plumb space: The copy was cancelled; nothing was left behind\.\n$/);
  assert.deepEqual(readdirSync(dir).sort(), ['secret.bin']);
});

test('another user cannot read a 0600 file through the copy’s temporary while it is written', async (t) => {
  if (spawnSync('runuser', ['-u', 'nobody', '--', 'true']).status !== 0) {
    t.skip('runuser -u nobody is not available (needs root)');
    return;
  }
  const dir = path.join(root, 'copy-private');
  const source = secretFile(dir, 256);
  const child = spawn(
    process.execPath,
    [plumbBin, 'space', 'sparse', source, '--copy-to', path.join(dir, 'copy.bin')],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let temp: string | undefined;
  for (let tries = 0; tries < 4000 && temp === undefined; tries += 1) {
    temp = readdirSync(dir).find(isTemp);
    if (temp === undefined) await new Promise((resolve) => setTimeout(resolve, 2));
  }
  assert.ok(temp, 'the copy made no temporary file');
  const read = spawnSync('runuser', [
    '-u',
    'nobody',
    '--',
    'head',
    '-c',
    '16',
    path.join(dir, temp),
  ]);
  child.kill('SIGINT');
  await exited;
  assert.notEqual(read.status, 0, 'user nobody read the temporary copy of a 0600 file');
  assert.match(read.stderr.toString(), /Permission denied/);
});

test('a copy killed with SIGKILL leaves a temporary that the next copy into that folder removes', async () => {
  const dir = path.join(root, 'copy-leftover');
  mkdirSync(dir);
  const source = path.join(dir, 'a.bin');
  writeFileSync(source, 'data');
  // A temporary of this host whose process is gone, and one of a process still alive.
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  const deadPid = Number(gone.stdout.toString());
  const host = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);
  const stale = path.join(dir, `.plumb-copy-${deadPid}-${host}-0123456789ab`);
  const live = path.join(dir, `.plumb-copy-${process.pid}-${host}-0123456789ab`);
  writeFileSync(stale, 'left by a killed copy');
  writeFileSync(live, 'a copy still running');
  const result = runPlumb(['space', 'sparse', source, '--copy-to', path.join(dir, 'b.bin')]);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(existsSync(stale), false, 'the stale temporary was left');
  assert.equal(existsSync(live), true, 'a running copy’s temporary was removed');
});

test('a closed stdout (`| head -1`) ends the command with exit 1 and one line, no EPIPE stack trace', async () => {
  const dataDir = mkdtempSync(path.join(root, 'data-'));
  const scanDir = path.join(root, 'scan-me');
  mkdirSync(scanDir);
  for (let i = 0; i < 50; i += 1) writeFileSync(path.join(scanDir, `f${i}`), `content ${i % 5}`);
  for (const args of [['results', 'list'], ['space', 'scan', scanDir], ['--help']]) {
    const child = spawn(process.execPath, [plumbBin, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PLUMB_DATA_DIR: dataDir },
    });
    // The reader goes away before the command writes, as `head` does after its first line.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    // The README's rule: the work is done, and exit 1 says its output was cut off.
    assert.match(stderr, /^plumb: the output was cut off \(.*\); the work itself was done\.\n$/);
    assert.equal(code, 1, `${args.join(' ')} exited ${String(code)}`);
  }
});

test('small bad inputs each get one clear line and the usage exit code', () => {
  const cases: [string[], RegExp][] = [
    [
      ['bench', ''],
      /^plumb bench: an argument is empty; give a path or value\. See `plumb bench --help`\.\n$/,
    ],
    [['space', 'scan', ''], /^plumb space: an argument is empty; give a path or value\./],
    [
      ['bench', root, '--scale', '-1'],
      /^plumb bench: --scale needs a value; to give one starting with "-", write --scale=VALUE\. See `plumb bench --help`\.\n$/,
    ],
    [
      ['bench', root, '--plan', 'sustained', '--total', '0'],
      /^plumb bench: --total takes a size above 0, e\.g\. 64GB\.\n$/,
    ],
    [['serve', '--port', ''], /^plumb serve: --port is empty; give a path or value\./],
  ];
  for (const [args, message] of cases) {
    const result = runWithin(args, 20);
    assert.equal(result.status, 2, `${JSON.stringify(args)}: ${result.stderr}`);
    assert.match(result.stderr, message);
    assert.equal(result.stderr.split('\n').length, 2, result.stderr);
  }
  assert.deepEqual(
    readdirSync(root).filter((name) => name.startsWith('plumb-test-')),
    [],
  );
});

test('a JSON error never echoes terminal escape codes from the file', () => {
  const file = path.join(root, 'hostile.json');
  writeFileSync(file, '{"name": \x1b]0;owned\x07\x1b[2J\x1b[31mred');
  const result = runWithin(['analyze', file], 20);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /^plumb analyze: .*hostile\.json is not valid JSON/);
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(result.stderr.slice(0, -1), /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\n]/);
  assert.match(result.stderr, /\\x1b/);
});

test('a folder that cannot be read is an error, not a scan of 0 files (run as user nobody)', (t) => {
  if (spawnSync('runuser', ['-u', 'nobody', '--', 'true']).status !== 0) {
    t.skip('runuser -u nobody is not available (needs root)');
    return;
  }
  chmodSync(root, 0o755);
  const locked = path.join(root, 'locked');
  mkdirSync(locked, { mode: 0o700 });
  writeFileSync(path.join(locked, 'inside'), 'x');
  const result = spawnSync(
    'runuser',
    ['-u', 'nobody', '--', process.execPath, plumbBin, 'space', 'scan', locked],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stderr, /^plumb space: Cannot read .*locked: .*\n$/i);
  assert.equal(result.stdout, '');
});
