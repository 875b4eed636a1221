// `npm run bench:space`: builds a tree with duplicates of varied sizes, then times
// `plumb space scan` (`node bin/plumb.js`, the command npm installs) against
// `fclones group` and `jdupes -r` on it, warm and cold cache, with peak memory, and prints ratios;
// one `find` walk that stats every file, the floor a rescan is compared with; and `plumb serve`
// scanning it for a page (scripts/bench-serve-scan.ts): the server's peak until the page shows
// the result.
// Not a test: it gates nothing.
//
//   node scripts/bench-space.mjs [--files N] [--total SIZE] [--full] [--dir DIR] [--keep] [--runs N] [--image]
//
// Default 20,000 files / 1 GB (this 2-core machine); --full is 100,000 files / 5 GB; --files
// 1000000 is the million-file tree (the total stays 1 GB unless --total says otherwise).
// More than 2,000,000 files (or any number with --image) are built in a loop-mounted ext4 image DIR.img mounted at DIR (small
// files inline in their inodes: ten million take about 5 GB, not 43), which needs root; the run
// refuses in one line without it, or when the disk would keep less than a tenth free. With --dir
// (or --keep) the tree stays for the next run, which mounts a kept image again by itself:
//   sudo node scripts/bench-space.mjs --files 10000000 --dir /work/bench10m --runs 1
// (by hand: `mount -o loop,noatime /work/bench10m.img /work/bench10m`). The tree is in
// scripts/bench-space-tree.mjs. For such a tree: --no-cold skips the cold runs, --no-warmup runs
// only the first tool twice (its first run warms the page cache for all; the rescan row uses the
// hash cache the first-scan row left), and --limit MIN stops a run after MIN minutes and reports
// the tool as slower than that.
// The Node entry keeps each folder's hash cache in its data folder: the first-scan rows run with
// none (wiped before every run), and the rescan row times a scan of the same unchanged tree with
// the cache its warm-up run left, printing the content it read (0 files when nothing changed).
// Cold runs drop the page cache (`echo 3 > /proc/sys/vm/drop_caches`, needs root).
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureTree } from './bench-space-tree.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    files: { type: 'string' },
    total: { type: 'string' },
    full: { type: 'boolean' },
    dir: { type: 'string' },
    keep: { type: 'boolean' },
    image: { type: 'boolean' },
    'no-cold': { type: 'boolean' },
    'no-warmup': { type: 'boolean' },
    limit: { type: 'string' },
    runs: { type: 'string', default: '3' },
  },
});
const sizeUnits = { '': 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };
function parseSize(text) {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = match && sizeUnits[match[2].toLowerCase()];
  if (!unit) throw new Error(`bench:space: cannot read the size "${text}"`);
  return Math.round(Number(match[1]) * unit);
}
const fileCount = Number(values.files ?? (values.full ? 100_000 : 20_000));
const totalBytes = parseSize(values.total ?? (values.full ? '5GB' : '1GB'));
const runs = Math.max(1, Number(values.runs));
const duplicateShare = 0.3;

// ── Timing ──────────────────────────────────────────────────────────────────────────────────
function dropCaches() {
  spawnSync('sync');
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '3\n');
    return true;
  } catch {
    return false;
  }
}

const limitMinutes = values.limit === undefined ? null : Number(values.limit);
if (limitMinutes !== null && !(limitMinutes > 0)) {
  console.error(`bench:space: --limit takes minutes, more than 0 (not "${values.limit}")`);
  process.exit(1);
}
class OverLimit extends Error {}
/** A tool that exited with an error or was killed (by hand, say): its row is reported as failed. */
class ToolFailed extends Error {}

/** Runs a command under /usr/bin/time: wall seconds and peak resident memory (bytes). */
function measure(command, args, env = process.env) {
  const limited = limitMinutes === null ? [] : ['timeout', String(limitMinutes * 60)];
  // Output to a file: ten million files' groups do not fit in a string.
  const stdout = path.join(dataDir, 'stdout');
  const out = openSync(stdout, 'w');
  let result;
  try {
    result = spawnSync('/usr/bin/time', ['-f', 'TIME %e %M', ...limited, command, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', out, 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
      env,
    });
  } finally {
    closeSync(out);
  }
  if (limited.length && result.status === 124) throw new OverLimit();
  const match = /TIME ([\d.]+) (\d+)/.exec(result.stderr);
  if (result.status !== 0 || !match) {
    // /usr/bin/time names a signal that ended the tool; its own lines are not the tool's words.
    const signal = /Command terminated by signal (\d+)/.exec(result.stderr)?.[1];
    const how = signal ? `killed by signal ${signal}` : `exit ${result.status}`;
    const said = result.stderr
      .split('\n')
      .filter((line) => line.trim() && !/^(TIME |Command (exited|terminated))/.test(line))
      .slice(-2)
      .join(' / ');
    throw new ToolFailed(`${how}${said ? `: ${said.slice(-300)}` : ''}`);
  }
  return { seconds: Number(match[1]), peakBytes: Number(match[2]) * 1024, stdout };
}

/** bench:serve-scan's run (a server, a page's calls over its WebSocket): its time and peak. */
function serveScan(dir) {
  const script = path.join(root, 'scripts', 'bench-serve-scan.ts');
  const result = spawnSync(process.execPath, ['--import', 'tsx', script, dir, '--json'], {
    cwd: root,
    encoding: 'utf8',
    timeout: limitMinutes === null ? undefined : limitMinutes * 60_000,
  });
  if (result.error?.code === 'ETIMEDOUT') throw new OverLimit();
  const line = result.stdout.trim().split('\n').pop();
  if (result.status !== 0 || !line?.startsWith('{')) {
    throw new ToolFailed(`exit ${result.status}: ${result.stderr.trim().slice(-300)}`);
  }
  const { seconds, peakBytes, reopenSeconds } = JSON.parse(line);
  return { seconds, peakBytes, reopenSeconds, stdout: null };
}

function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const which = (name) =>
  spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() ||
  [path.join(process.env.HOME ?? '/root', '.cargo', 'bin', name)].find((p) => existsSync(p));

/** Calls `each` with every line of a file, read 16 MB at a time (ten million files print GBs). */
function eachLine(file, each) {
  const fd = openSync(file, 'r');
  const chunk = Buffer.alloc(16 * 1024 * 1024);
  let rest = '';
  try {
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0;) {
      const lines = (rest + chunk.toString('utf8', 0, n)).split('\n');
      rest = lines.pop();
      for (const line of lines) each(line);
    }
    if (rest) each(rest);
  } finally {
    closeSync(fd);
  }
}
const countLines = (file, pattern) => {
  let count = 0;
  eachLine(file, (line) => (count += pattern.test(line) ? 1 : 0));
  return count;
};
/** The first and last KiB of a file: Plumb's JSON has its figures there, its groups between. */
function ends(file) {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(2048, size));
    const tail = Buffer.alloc(Math.min(1024, size));
    readSync(fd, head, 0, head.length, 0);
    readSync(fd, tail, 0, tail.length, size - tail.length);
    return { head: head.toString(), tail: tail.toString() };
  } finally {
    closeSync(fd);
  }
}
const figure = (text, key) => Number(new RegExp(`"${key}": ([\\d.e+-]+)`).exec(text)?.[1]);
const plumbJson = {
  // Each group opens at four spaces' indent (JSON.stringify(result, null, 2)).
  groups: (file) => countLines(file, /^ {4}\{$/),
  stages: (file) => {
    const { head } = ends(file);
    return Object.fromEntries(
      ['walk', 'compare', 'hash', 'sharing'].map((k) => [k, figure(head, k)]),
    );
  },
  contentRead: (file) => {
    const { tail } = ends(file);
    const read = /"contentRead": \{\s*"files": (\d+),\s*"bytes": (\d+)/.exec(tail);
    return read ? { files: Number(read[1]), bytes: Number(read[2]) } : null;
  },
};
// The Node entry's data folder (its hash caches): emptied before every first-scan run.
const dataDir = mkdtempSync(path.join(tmpdir(), 'plumb-bench-space-data-'));
const dataEnv = { ...process.env, PLUMB_DATA_DIR: dataDir };
const noCache = () => rmSync(path.join(dataDir, 'space-scans'), { recursive: true, force: true });
// Looked up after the tree is built, so a peer installed while a big tree is being written counts.
const findTools = () =>
  [
    {
      name: 'plumb space scan (node bin/plumb.js)',
      command: process.execPath,
      args: (dir) => [path.join(root, 'bin', 'plumb.js'), 'space', 'scan', dir, '--json'],
      env: dataEnv,
      prepare: noCache,
      ...plumbJson,
    },
    {
      name: 'plumb space rescan, unchanged (node bin/plumb.js)',
      command: process.execPath,
      args: (dir) => [path.join(root, 'bin', 'plumb.js'), 'space', 'scan', dir, '--json'],
      env: dataEnv,
      ...plumbJson,
    },
    {
      // What `plumb space scan DIR` prints without --json: the figures and the largest groups
      // (a first scan, like the first row).
      name: 'plumb space scan, the summary (node bin/plumb.js)',
      command: process.execPath,
      args: (dir) => [path.join(root, 'bin', 'plumb.js'), 'space', 'scan', dir],
      env: dataEnv,
      prepare: noCache,
      groups: (file) =>
        Number(/^Duplicate groups: (\d+)$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? NaN),
    },
    {
      // The server's peak (VmHWM) from the scan's start until the page shows its first groups and
      // the kept scan is reopened; the time is the time to the page. Its own data folder: no hash
      // cache, a first scan.
      name: 'plumb serve, the page shows the result',
      command: process.execPath,
      measure: serveScan,
      groups: () => null,
    },
    {
      // The floor a rescan is held to: one walk that reads every file's size, time and inode.
      name: 'find walk (-type f, stat)',
      command: which('find'),
      args: (dir) => [dir, '-type', 'f', '-printf', '%s %T@ %i\n'],
      groups: () => null,
    },
    {
      name: 'fclones group',
      command: which('fclones'),
      args: (dir) => ['group', dir],
      groups: (file) => countLines(file, /^[0-9a-f]+, \d+ B/),
    },
    {
      name: 'jdupes -r',
      command: which('jdupes'),
      args: (dir) => ['-r', '-q', dir],
      groups: (file) => {
        let count = 0;
        let inBlock = false;
        eachLine(file, (line) => {
          if (line.trim() && !inBlock) count += 1;
          inBlock = Boolean(line.trim());
        });
        return count;
      },
    },
  ].filter((tool) => {
    if (tool.command) return true;
    console.log(
      `bench:space: ${tool.missing ?? `${tool.name.split(' ')[0]} is not installed`}; ${tool.name} is left out.`,
    );
    return false;
  });

const dir = values.dir
  ? path.resolve(values.dir)
  : mkdtempSync(path.join(tmpdir(), 'plumb-bench-space-'));
let tree = { cleanup: () => {} };
try {
  tree = await ensureTree({
    dir,
    fileCount,
    totalBytes,
    duplicateShare,
    keep: values.keep || Boolean(values.dir),
    image: values.image,
  });
  const tools = findTools();
  const canDrop = !values['no-cold'] && dropCaches();
  if (!canDrop && !values['no-cold'])
    console.log('bench:space: cannot drop caches (not root): cold runs are skipped.');
  const rows = [];
  const notMeasured = []; // one line for each tool stopped at --limit or failed
  for (const tool of tools) {
    const row = {
      name: tool.name,
      warm: [],
      cold: [],
      peak: 0,
      groups: null,
      stages: [],
      read: [],
      reopen: [], // plumb serve: seconds to reopen the kept scan (space.lastScan)
    };
    const run = () => {
      tool.prepare?.();
      const result = tool.measure
        ? tool.measure(dir)
        : measure(tool.command, tool.args(dir), tool.env);
      if (tool.contentRead) row.read.push(tool.contentRead(result.stdout));
      if (result.reopenSeconds !== undefined) row.reopen.push(result.reopenSeconds);
      return result;
    };
    try {
      // Warms the page cache (and the tool; the rescan row's hash cache).
      if (!values['no-warmup'] || rows.length === 0) run();
      row.read = [];
      row.reopen = [];
      for (let i = 0; i < runs; i += 1) {
        const warm = run();
        row.warm.push(warm.seconds);
        row.peak = Math.max(row.peak, warm.peakBytes);
        row.groups = tool.groups(warm.stdout);
        if (tool.stages) row.stages.push({ cache: 'warm', ...tool.stages(warm.stdout) });
        if (canDrop) {
          dropCaches();
          const cold = run();
          row.cold.push(cold.seconds);
          row.peak = Math.max(row.peak, cold.peakBytes);
          if (tool.stages) row.stages.push({ cache: 'cold', ...tool.stages(cold.stdout) });
        }
      }
    } catch (error) {
      if (!(error instanceof OverLimit || error instanceof ToolFailed)) throw error;
      const why =
        error instanceof OverLimit
          ? `stopped after ${limitMinutes} min (slower than that)`
          : `failed (${error.message})`;
      console.log(`bench:space: ${row.name}: ${why}`);
      notMeasured.push(`${row.name}: ${why}`);
      // Plumb's own rows must run: the table is still printed, and the bench then exits 1.
      if (tool.name.startsWith('plumb') && error instanceof ToolFailed) process.exitCode = 1;
      continue;
    }
    rows.push(row);
    // Each row as soon as it is measured: a run stopped later (a 1M-file tree takes long) keeps it.
    console.log(
      `bench:space: ${row.name}: warm ${median(row.warm).toFixed(2)} s, cold ${
        row.cold.length ? `${median(row.cold).toFixed(2)} s` : '—'
      }, peak ${(row.peak / 1e6).toFixed(0)} MB, ${row.groups ?? '—'} groups` +
        (row.read.length
          ? `, content read ${row.read.map((r) => r?.files ?? '?').join(', ')} files`
          : ''),
    );
  }
  console.log('');
  const width = Math.max(...rows.map((row) => row.name.length));
  // Content read: the last run's (a rescan of an unchanged tree reads none); every run's below.
  const read = (row) => {
    const last = row.read.at(-1);
    return last ? `${last.files} files, ${(last.bytes / 1e6).toFixed(0)} MB` : '—';
  };
  console.log(`${'tool'.padEnd(width)}   warm s   cold s   peak MB   groups   content read`);
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(width)}   ${median(row.warm).toFixed(2).padStart(6)}   ${
        row.cold.length ? median(row.cold).toFixed(2).padStart(6) : '     —'
      }   ${(row.peak / 1e6).toFixed(0).padStart(7)}   ${String(row.groups ?? '—').padStart(6)}   ${read(row)}`,
    );
  }
  for (const line of notMeasured) console.log(`not measured: ${line}`);
  for (const row of rows.filter((r) => r.reopen.length)) {
    const each = row.reopen.map((s) => `${s.toFixed(2)} s`).join(', ');
    console.log(`${row.name}: the kept scan reopened (space.lastScan) in ${each}`);
  }
  for (const row of rows.filter((r) => r.read.length > 1)) {
    const files = row.read.map((r) => r?.files ?? '?').join(', ');
    const bytes = row.read.map((r) => (r ? `${(r.bytes / 1e6).toFixed(0)} MB` : '?')).join(', ');
    console.log(`${row.name}: content read per run: ${files} files (${bytes})`);
  }
  const first = rows.find((row) => row.name === 'plumb space scan (node bin/plumb.js)');
  const rescan = rows.find((row) => row.name.startsWith('plumb space rescan'));
  if (first && rescan) {
    console.log(
      `rescan / first scan (node bin/plumb.js): warm ×${(median(rescan.warm) / median(first.warm)).toFixed(2)}` +
        (first.cold.length
          ? `, cold ×${(median(rescan.cold) / median(first.cold)).toFixed(2)}`
          : ''),
    );
  }
  const walk = rows.find((row) => row.name.startsWith('find walk'));
  if (rescan && walk) {
    console.log(
      `rescan / find walk: warm ×${(median(rescan.warm) / median(walk.warm)).toFixed(2)}` +
        (walk.cold.length ? `, cold ×${(median(rescan.cold) / median(walk.cold)).toFixed(2)}` : ''),
    );
  }
  const plumbRows = rows.filter(
    (row) => row.name.startsWith('plumb') && !row.name.startsWith('plumb space rescan'),
  );
  const peers = rows.filter((row) => !row.name.startsWith('plumb') && row !== walk);
  // Where Plumb's time goes (seconds inside the scan, from its own report; the rest is start-up).
  for (const plumb of plumbRows) {
    for (const stage of plumb.stages) {
      const parts = ['walk', 'compare', 'hash', 'sharing'].map(
        (k) => `${k} ${stage[k]?.toFixed(2)}`,
      );
      console.log(`${plumb.name} stages (${stage.cache}): ${parts.join(', ')} s`);
    }
  }
  // A Node process costs memory before it does anything: report the Node entry's peak above that.
  const addon = path.join(root, 'native', 'build', 'Release', 'plumb.node');
  const nodeBase = measure(process.execPath, ['-e', `require(${JSON.stringify(addon)})`]);
  const cliBase = measure(process.execPath, [path.join(root, 'bin', 'plumb.js'), '--version']);
  const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
  const nodeRow = rows.find((row) => row.name.includes('node bin/plumb.js'));
  console.log(
    `plumb baseline: node + addon ${mb(nodeBase.peakBytes)} (${nodeBase.seconds.toFixed(2)} s), ` +
      `plumb --version ${mb(cliBase.peakBytes)} (${cliBase.seconds.toFixed(2)} s)` +
      (nodeRow
        ? `; node bin/plumb.js scan peak over node + addon ${mb(nodeRow.peak - nodeBase.peakBytes)}, over plumb --version ${mb(nodeRow.peak - cliBase.peakBytes)}`
        : ''),
  );
  const ratio = (a, b) => (b > 0 ? (a / b).toFixed(2) : '—');
  for (const plumb of plumbRows) {
    for (const peer of peers) {
      const overNode =
        plumb === nodeRow
          ? `, peak over node + addon ×${ratio(plumb.peak - nodeBase.peakBytes, peer.peak)}`
          : '';
      console.log(
        `${plumb.name} / ${peer.name}: warm time ×${ratio(median(plumb.warm), median(peer.warm))}, cold time ×${
          plumb.cold.length && peer.cold.length ? ratio(median(plumb.cold), median(peer.cold)) : '—'
        }, peak memory ×${ratio(plumb.peak, peer.peak)}${overNode} (below 1 is better for plumb)`,
      );
    }
  }
} catch (error) {
  // The tree's own refusals (no root, no room) are one line; anything else keeps its stack.
  if (!String(error?.message).startsWith('bench:space:')) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  if (!values.keep && !values.dir) {
    tree.cleanup(); // unmounts and deletes an image
    rmSync(dir, { recursive: true, force: true });
  }
  rmSync(dataDir, { recursive: true, force: true });
}
