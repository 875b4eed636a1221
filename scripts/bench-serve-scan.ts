// A space scan through `plumb serve`, as the browser UI runs it: the server's peak memory (VmHWM),
// the time until the page has the result and the time to reopen the kept scan, for a tree the
// user names (bench:space builds one: `node scripts/bench-space.mjs --files 1000000 --dir DIR
// --keep`). Linux only (reads /proc).
// A script, not a test: `node --import tsx scripts/bench-serve-scan.ts DIR [--json]` (--json: one
// line of JSON instead, {seconds, peakBytes, reopenSeconds, resultBytes}, as bench:space reads it).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { startServe } from '../tests/helpers/cli.js';
import { signIn } from '../tests/helpers/web.js';

async function main(): Promise<void> {
  const tree = process.argv[2];
  if (!tree) throw new Error('Give the folder to scan: bench-serve-scan.ts DIR [--json]');
  const json = process.argv.includes('--json');
  // A data folder of its own: no hash cache from an earlier scan, so every file is read.
  const data = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-serve-'));
  const server = await startServe([], { env: { PLUMB_DATA_DIR: data } });
  try {
    const pid = execFileSync('pgrep', ['-n', '-f', 'bin/plumb.js serve']).toString().trim();
    const cookie = await signIn(server);
    const socket = new WebSocket(`ws://${server.url.host}/ws`, {
      origin: `http://${server.url.host}`,
      headers: { cookie },
      maxPayload: 2 ** 31,
    });
    await new Promise((resolve) => socket.once('open', resolve));
    const call = (id: number, name: string, input: unknown) =>
      socket.send(JSON.stringify({ type: 'call', id, name, input }));
    const replies = new Map<number, (ok: boolean, error: unknown, bytes: number) => void>();
    /** Resolves with the reply's length in bytes. */
    const answered = (id: number) =>
      new Promise<number>((resolve, reject) =>
        replies.set(id, (ok, error, bytes) =>
          ok ? resolve(bytes) : reject(new Error(`call ${id}: ${JSON.stringify(error)}`)),
        ),
      );
    const started = performance.now();
    const done = new Promise<number>((resolve) =>
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as {
          type: string;
          id?: number;
          ok?: boolean;
          error?: unknown;
          name?: string;
          payload?: { type?: string };
        };
        if (message.type === 'reply') {
          replies.get(message.id!)?.(message.ok!, message.error, data.length);
        }
        // The scan's own event, with its result (job.event says "done" first, without it).
        if (message.name === 'space.event' && message.payload?.type === 'done') {
          resolve(data.length);
        }
      }),
    );
    // One after the other: a scan sent before the folder is chosen is refused.
    call(1, 'session.choosePath', { path: tree });
    await answered(1);
    call(2, 'space.scan', { path: tree });
    await answered(2);
    const bytes = await done;
    const seconds = (performance.now() - started) / 1000;
    // An older server kept the scan as the folder's last one after it had sent it: that counts.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    // Reopening the Space view: the kept scan, as a page loaded later asks for it.
    const reopening = performance.now();
    call(3, 'space.lastScan', {});
    const reopenBytes = await answered(3);
    const reopenSeconds = (performance.now() - reopening) / 1000;
    const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1];
    const peakBytes = Number(peak) * 1024;
    console.log(
      json
        ? JSON.stringify({ seconds, peakBytes, reopenSeconds, resultBytes: bytes })
        : `bench:serve-scan: result ${(bytes / 1e6).toFixed(1)} MB at the page after ${seconds.toFixed(1)} s; ` +
            `reopened (space.lastScan) in ${reopenSeconds.toFixed(2)} s, ${(reopenBytes / 1e6).toFixed(1)} MB; ` +
            `server peak ${(peakBytes / 1e6).toFixed(0)} MB (pid ${pid})`,
    );
    socket.close();
  } finally {
    await server.stop();
    rmSync(data, { recursive: true, force: true });
  }
}

void main();
