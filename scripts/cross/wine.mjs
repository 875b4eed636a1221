// Wine for one check, owned from start to stop: a prefix of this checkout's own (kept between runs
// under PLUMB_CI_CACHE/wine/, locked while in use), its own wineserver started here, and every
// Wine process stopped at the end (wineserver -k) or when the deadline passes. A server or a
// winedevice left by an earlier run of another checkout is never joined: here they held every
// later run hung right after the build.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { cacheDir, root } from './build.mjs';

const wineBinaries = ['/usr/lib/wine/wine64', '/usr/bin/wine64'];

/** Resolves when `child` exits, with its status and signal. */
const exited = (child) =>
  new Promise((resolve) => {
    child.on('error', (error) => resolve({ status: null, signal: null, error }));
    child.on('exit', (status, signal) => resolve({ status, signal }));
  });

/** Takes `lock` for this process; throws naming the holder when a live process has it. */
function takeLock(lock, prefix) {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      process.on('exit', () => rmSync(lock, { force: true }));
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lock, 'utf8'));
      let alive = false;
      try {
        process.kill(holder, 0);
        alive = holder > 0;
      } catch {
        // no such process: the lock is left from a run that was killed
      }
      if (alive) {
        throw new Error(
          `another check (pid ${holder}) is using the Wine prefix ${prefix}; let it finish or stop it`,
          { cause: error },
        );
      }
      rmSync(lock, { force: true });
    }
  }
  throw new Error(`could not take ${lock}`);
}

/**
 * Starts this checkout's Wine: `run(args, { outFile, env })` runs a Windows program with its
 * output in `outFile` (Wine's programs cannot write to a Linux pipe), stopped when `deadline`
 * (ms since the epoch) passes; `stop()` ends every Wine process of the prefix and its server.
 */
export async function ownWinePrefix({ deadline }) {
  const wine = wineBinaries.find((file) => existsSync(file));
  const wineserver = wine && path.join(path.dirname(wine), 'wineserver');
  if (!wine || !existsSync(wineserver)) {
    throw new Error('wine64 is missing; run .ci/run, which installs it (apt-get install wine64)');
  }
  const checkout = createHash('sha256').update(root).digest('hex').slice(0, 12);
  const prefix = path.join(cacheDir, 'wine', `prefix-${checkout}`);
  mkdirSync(prefix, { recursive: true });
  takeLock(`${prefix}.lock`, prefix);
  const env = {
    ...process.env,
    WINEPREFIX: prefix,
    WINEDEBUG: '-all',
    // No Mono or Gecko installer on a new prefix: nothing here needs .NET or a browser engine.
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
    // Wine maps Windows names to Unix ones through the locale's charset: without a UTF-8
    // locale (CI runs with an empty environment) a name like "naïve.bin" cannot be made.
    LC_ALL: 'C.UTF-8',
  };

  const killAll = () => exited(spawn(wineserver, ['-k'], { env, stdio: 'ignore' }));
  await killAll(); // a server of this prefix left by a run that was itself killed
  // In the foreground, so it is this process's child; persistent until stopped.
  const server = spawn(wineserver, ['--foreground', '--persistent'], { env, stdio: 'ignore' });
  const serverExited = exited(server);

  let timedOut = false;
  const untilDeadline = async (child) => {
    const timer = setTimeout(
      () => {
        timedOut = true;
        killAll();
      },
      Math.max(0, deadline - Date.now()),
    );
    const result = await exited(child);
    clearTimeout(timer);
    return { ...result, timedOut };
  };

  if (!existsSync(path.join(prefix, 'system.reg'))) {
    const boot = await untilDeadline(spawn(wine, ['wineboot', '--init'], { env, stdio: 'ignore' }));
    if (boot.timedOut || boot.status !== 0) {
      await killAll();
      throw new Error(
        `wineboot could not make the prefix ${prefix} (${boot.timedOut ? 'timed out' : `exit ${boot.status}`})`,
      );
    }
  }

  return {
    prefix,
    async run(args, { outFile, env: extra = {} }) {
      const out = openSync(outFile, 'w');
      try {
        return await untilDeadline(
          spawn(wine, args, { cwd: root, env: { ...env, ...extra }, stdio: ['ignore', out, out] }),
        );
      } finally {
        closeSync(out);
      }
    },
    /** Stops every process of the prefix and its server; says how it went. */
    async stop() {
      await killAll();
      const stopped = await Promise.race([
        serverExited.then(() => true),
        new Promise((resolve) => setTimeout(() => resolve(false), 10_000)),
      ]);
      if (!stopped) server.kill('SIGKILL');
      return stopped ? 'Wine stopped' : 'wineserver did not stop in 10 s and was killed';
    },
  };
}
