/** Runs the built `plumb` command as a user would. */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const plumbBin = path.join(repoRoot, 'bin', 'plumb.js');

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
    env: { ...process.env, ...options.env },
    input: options.input,
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Starts `plumb serve` and resolves with its URL once it has printed it. With `cgroupProcsFile`
 * the server joins that cgroup before it starts (a throttled disk's writer must be inside it).
 */
export async function startServe(
  args: string[] = [],
  options: { cgroupProcsFile?: string } = {},
): Promise<{ url: URL; stop: () => Promise<number | null> }> {
  const command = [plumbBin, 'serve', ...args];
  const child = options.cgroupProcsFile
    ? spawn(
        'sh',
        [
          '-c',
          `echo $$ > '${options.cgroupProcsFile}' && exec "$0" "$@"`,
          process.execPath,
          ...command,
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
    : spawn(process.execPath, command, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`plumb serve printed no URL: ${output}`)),
      15_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(new URL(match[1]!));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`plumb serve exited (${code}): ${output}`)));
  });
  const stop = () =>
    new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return { url, stop };
}
