/**
 * Running the built CLI inside a cgroup (Linux, root): one with a memory limit here, and the write
 * throttles of throttle.ts. `memoryLimitSkipReason()` says why a test must skip; undefined where it
 * can run.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { childEnv, plumbBin } from './cli.js';

/** Where cgroup v2 is mounted (and the v1 controllers' folders beneath, on a v1 machine). */
export const cgroupRoot = '/sys/fs/cgroup';
const v1Memory = path.join(cgroupRoot, 'memory');

/**
 * Which cgroup version offers a controller here: v1 where its file `v1File` exists (e.g.
 * memory/memory.limit_in_bytes), v2 where the root lists `v2Controller` (e.g. memory), or neither.
 */
export function cgroupFlavour(v1File: string, v2Controller: string): 'v1' | 'v2' | undefined {
  if (existsSync(path.join(cgroupRoot, v1File))) return 'v1';
  const controllers = path.join(cgroupRoot, 'cgroup.controllers');
  if (
    existsSync(controllers) &&
    readFileSync(controllers, 'utf8').split(/\s+/).includes(v2Controller)
  )
    return 'v2';
  return undefined;
}

const memoryFlavour = () => cgroupFlavour('memory/memory.limit_in_bytes', 'memory');

export function memoryLimitSkipReason(): string | undefined {
  if (process.platform !== 'linux') return 'memory cgroups are a Linux facility';
  if (process.getuid?.() !== 0) return 'making a memory cgroup needs root (CI runs as root)';
  if (!memoryFlavour())
    return 'neither the cgroup v1 memory controller nor cgroup v2 memory is here';
  return undefined;
}

export interface MemoryLimit {
  /** Write a pid here to put that process under the limit. */
  procsFile: string;
  remove(): void;
}

/** A cgroup whose processes (and the page cache they bring in) may use at most `bytes`. */
export function createMemoryLimit(bytes: number): MemoryLimit {
  const kind = memoryFlavour();
  if (!kind) throw new Error(`cannot limit memory: ${memoryLimitSkipReason()}`);
  const dir = path.join(kind === 'v1' ? v1Memory : cgroupRoot, `plumb-memory-${process.pid}`);
  mkdirSync(dir);
  if (kind === 'v1') writeFileSync(path.join(dir, 'memory.limit_in_bytes'), String(bytes));
  else {
    writeFileSync(path.join(cgroupRoot, 'cgroup.subtree_control'), '+memory');
    writeFileSync(path.join(dir, 'memory.max'), String(bytes));
  }
  return {
    procsFile: path.join(dir, 'cgroup.procs'),
    remove() {
      // Processes inside keep it busy; they have exited by the time tests call this.
      try {
        rmdirSync(dir);
      } catch {
        // already gone
      }
    },
  };
}

/** Runs the built CLI inside the cgroup of `procsFile`; resolves with its exit code and output. */
export function runPlumbInCgroup(
  procsFile: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'sh',
      ['-c', `echo $$ > '${procsFile}' && exec "$0" "$@"`, process.execPath, plumbBin, ...args],
      { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}
