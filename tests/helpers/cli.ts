/** Runs the built `plumb` command as a user would. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const plumbBin = path.join(repoRoot, 'bin', 'plumb.js');

let ownFolders: string | undefined;

/**
 * The environment a `plumb` child runs in: this process's with `extra`, and Plumb's data and state
 * folders in a temporary folder of this test process (removed when it exits) where neither names
 * them, so no test reads or writes the real user's kept scans, hash caches, results or settings.
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  if (env.PLUMB_DATA_DIR === undefined || env.PLUMB_STATE_DIR === undefined) {
    if (ownFolders === undefined) {
      const made = mkdtempSync(path.join(os.tmpdir(), 'plumb-cli-'));
      ownFolders = made;
      process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    }
    env.PLUMB_DATA_DIR ??= path.join(ownFolders, 'data');
    env.PLUMB_STATE_DIR ??= path.join(ownFolders, 'state');
  }
  return env;
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runPlumb(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string } = {},
): CliResult {
  const result = spawnSync(process.execPath, [plumbBin, ...args], {
    encoding: 'utf8',
    env: childEnv(options.env),
    input: options.input,
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A running `plumb serve`, as its tests see it. */
export interface ServeProcess {
  /** The first sign-in link it printed (host and port are those of every link). */
  url: URL;
  /**
   * A sign-in link not handed out before: each works once, and serve prints the next one when one
   * is used, so this waits for it.
   */
  nextUrl(): Promise<URL>;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** The exit code once it exited (undefined while it runs). */
  exitCode(): number | null | undefined;
  stop(): Promise<number | null>;
}

/**
 * Starts `plumb serve` and resolves once it has printed its sign-in link. With `cgroupProcsFile`
 * the server joins that cgroup before it starts (a throttled disk's writer must be inside it).
 */
export async function startServe(
  args: string[] = [],
  options: { cgroupProcsFile?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ServeProcess> {
  const command = [plumbBin, 'serve', ...args];
  const spawnOptions = {
    stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'],
    env: childEnv(options.env),
  };
  const child = options.cgroupProcsFile
    ? spawn(
        'sh',
        [
          '-c',
          `echo $$ > '${options.cgroupProcsFile}' && exec "$0" "$@"`,
          process.execPath,
          ...command,
        ],
        spawnOptions,
      )
    : spawn(process.execPath, command, spawnOptions);
  let output = '';
  let exited: number | null | undefined;
  const links: URL[] = [];
  let handedOut = 0;
  let wake: () => void = () => undefined;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    const found = [...output.matchAll(/http:\/\/127\.0\.0\.1:\d+\/\?code=[\w-]+/g)];
    for (const match of found.slice(links.length)) links.push(new URL(match[0]));
    wake();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  child.on('exit', (code) => {
    exited = code;
    wake();
  });
  const waitForLink = async (index: number): Promise<URL> => {
    const deadline = Date.now() + 15_000;
    while (links.length <= index) {
      if (exited !== undefined) throw new Error(`plumb serve exited (${exited}): ${output}`);
      if (Date.now() > deadline) throw new Error(`plumb serve printed no new link: ${output}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 200);
      });
    }
    return links[index]!;
  };
  const url = await waitForLink(0);
  const stop = () =>
    new Promise<number | null>((resolve) => {
      if (exited !== undefined) return resolve(exited);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return {
    url,
    nextUrl: () => waitForLink(handedOut++),
    output: () => output,
    exitCode: () => exited,
    stop,
  };
}
