/** Killing a `plumb` command part way, as a crash or a power cut would, for crash tests. */
import { spawn } from 'node:child_process';
import { childEnv, plumbBin } from './cli.js';

export interface KillPoint {
  env: NodeJS.ProcessEnv;
  /** A line the command prints as it finishes each file. */
  done: RegExp;
  /** Kill once this many such lines were printed; 0: while it starts. */
  afterLines: number;
  /** Milliseconds from then to the kill (drawn anew each time: lands anywhere in the next file). */
  delayMs: () => number;
  /** With `afterLines` 0, milliseconds from the start to the kill. */
  startDelayMs?: () => number;
}

/** Runs `plumb ARGS` and kills it with SIGKILL at `at`; says whether it was killed, and when. */
export function killedAfter(
  args: string[],
  at: KillPoint,
): Promise<{ killed: boolean; linesDone: number }> {
  const child = spawn(process.execPath, [plumbBin, ...args], {
    env: childEnv(at.env),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let linesDone = 0;
  let armed = false;
  const arm = (ms: number) => {
    if (armed) return;
    armed = true;
    setTimeout(() => child.kill('SIGKILL'), ms);
  };
  if (at.afterLines === 0) arm((at.startDelayMs ?? at.delayMs)());
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      if (at.done.test(line)) linesDone += 1;
      if (at.afterLines > 0 && linesDone >= at.afterLines) arm(at.delayMs());
    }
  });
  return new Promise((resolve) => {
    child.on('exit', (_code, signal) => resolve({ killed: signal === 'SIGKILL', linesDone }));
  });
}
