// `npm run bench:space`: builds a tree with duplicates of varied sizes, then times
// `plumb space scan` (`node bin/plumb.js`, the command npm installs) against
// `fclones group` and `jdupes -r` on it, warm and cold cache, with peak memory, and prints ratios;
// and one `find` walk that stats every file, the floor a rescan is compared with.
// Not a test: it gates nothing.
//
//   node scripts/bench-space.mjs [--files N] [--total SIZE] [--full] [--dir DIR] [--keep] [--runs N]
//
// Default 20,000 files / 1 GB (this 2-core machine); --full is 100,000 files / 5 GB; --files
// 1000000 is the million-file tree (the total stays 1 GB unless --total says otherwise).
// The Node entry keeps each folder's hash cache in its data folder: the first-scan rows run with
// none (wiped before every run), and the rescan row times a scan of the same unchanged tree with
// the cache its warm-up run left, printing the content it read (0 files when nothing changed).
// Cold runs drop the page cache (`echo 3 > /proc/sys/vm/drop_caches`, needs root).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    files: { type: 'string' },
    total: { type: 'string' },
    full: { type: 'boolean' },
    dir: { type: 'string' },
    keep: { type: 'boolean' },
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

// ── The tree ────────────────────────────────────────────────────────────────────────────────
/** Deterministic sizes: log-uniform from 1 KB to 16 MB, scaled so they add up to the total. */
function fileSizes(count, total, seed = 12345) {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const raw = Array.from({ length: count }, () =>
    Math.exp(Math.log(1e3) + random() * Math.log(16e3)),
  );
  const scale = total / raw.reduce((a, b) => a + b, 0);
  // At least the 4-byte stamp that keeps slices apart (a million files in 1 GB go below it).
  return raw.map((s) => Math.max(4, Math.round(s * scale)));
}

function buildTree(dir) {
  const pool = randomBytes(64 * 1024 * 1024); // incompressible, sliced at varying offsets
  const sizes = fileSizes(fileCount, totalBytes);
  const uniques = Math.round(fileCount * (1 - duplicateShare));
  let offset = 0;
  const contentOf = (size) => {
    if (size <= pool.length) {
      offset = (offset + 7919 * 64) % (pool.length - size + 1);
      const chunk = Buffer.from(pool.subarray(offset, offset + size));
      chunk.writeUInt32LE(offset, 0); // different slices of the pool never collide
      return chunk;
    }
    return randomBytes(size);
  };
  const written = [];
  for (let i = 0; i < fileCount; i += 1) {
    const folder = path.join(dir, `d${i % 97}`, `e${i % 13}`);
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `f${i}.bin`);
    if (i < uniques) {
      const data = contentOf(sizes[i]);
      writeFileSync(file, data);
      written.push(file);
    } else {
      // A copy of an earlier file, in another folder.
      const source = written[(i * 31) % written.length];
      writeFileSync(file, readFileSync(source)); // a real copy, never a reflink
    }
  }
}

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

/** Runs a command under /usr/bin/time: wall seconds and peak resident memory (bytes). */
function measure(command, args, env = process.env) {
  const result = spawnSync('/usr/bin/time', ['-f', 'TIME %e %M', command, ...args], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    env,
  });
  const match = /TIME ([\d.]+) (\d+)/.exec(result.stderr);
  if (result.status !== 0 || !match) {
    throw new Error(`${command} failed (${result.status}): ${result.stderr.slice(-400)}`);
  }
  return { seconds: Number(match[1]), peakBytes: Number(match[2]) * 1024, stdout: result.stdout };
}

function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const which = (name) =>
  spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() ||
  [path.join(process.env.HOME ?? '/root', '.cargo', 'bin', name)].find((p) => existsSync(p));

const plumbJson = {
  groups: (out) => JSON.parse(out).groups.length,
  stages: (out) => JSON.parse(out).stageSeconds ?? null,
  contentRead: (out) => JSON.parse(out).contentRead ?? null,
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
      groups: (out) => out.split('\n').filter((l) => /^[0-9a-f]+, \d+ B/.test(l)).length,
    },
    {
      name: 'jdupes -r',
      command: which('jdupes'),
      args: (dir) => ['-r', '-q', dir],
      groups: (out) => out.split(/\n\s*\n/).filter((block) => block.trim()).length,
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
try {
  if (!existsSync(path.join(dir, 'd0'))) {
    console.log(
      `bench:space: building ${fileCount} files, ${(totalBytes / 1e9).toFixed(2)} GB, ${duplicateShare * 100} % copies, in ${dir}`,
    );
    const started = performance.now();
    buildTree(dir);
    console.log(`bench:space: built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const tools = findTools();
  const canDrop = dropCaches();
  if (!canDrop) console.log('bench:space: cannot drop caches (not root): cold runs are skipped.');
  const rows = [];
  for (const tool of tools) {
    const row = {
      name: tool.name,
      warm: [],
      cold: [],
      peak: 0,
      groups: null,
      stages: [],
      read: [],
    };
    const run = () => {
      tool.prepare?.();
      const result = measure(tool.command, tool.args(dir), tool.env);
      if (tool.contentRead) row.read.push(tool.contentRead(result.stdout));
      return result;
    };
    run(); // warm the cache (and the tool; the rescan row's hash cache)
    row.read = [];
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
  console.log(`${'tool'.padEnd(width)}   warm s   cold s   peak MB   groups`);
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(width)}   ${median(row.warm).toFixed(2).padStart(6)}   ${
        row.cold.length ? median(row.cold).toFixed(2).padStart(6) : '     —'
      }   ${(row.peak / 1e6).toFixed(0).padStart(7)}   ${String(row.groups ?? '—').padStart(6)}`,
    );
  }
  for (const row of rows.filter((r) => r.read.length)) {
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
      `plumb --version ${mb(cliBase.peakBytes)} (${cliBase.seconds.toFixed(2)} s); node bin/plumb.js scan peak over ` +
      `node + addon ${mb(nodeRow.peak - nodeBase.peakBytes)}, over plumb --version ${mb(nodeRow.peak - cliBase.peakBytes)}`,
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
} finally {
  if (!values.keep && !values.dir) rmSync(dir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
