// `node scripts/bench-rescan.mjs --dir DIR`: the rescan of an unchanged tree against the walk it
// needs, round by round. Each round runs `plumb space scan DIR --json` (this checkout's, and with
// --base another checkout's, both with a hash cache a warm-up scan left) and one
// `find DIR -type f -printf '%s %T@ %i\n'` walk, back to back, and prints each one's wall and CPU
// seconds, peak memory and its ratio to the find of the same round: on a shared machine whose disk
// and CPUs drift, only runs side by side compare. The scan's JSON goes to a pipe, read and dropped,
// as `plumb space scan --json | …` would; find's to /dev/null. Not a test: it gates nothing.
//
//   node scripts/bench-rescan.mjs --dir DIR [--rounds N] [--base CHECKOUT]
//
// Make the tree with `npm run bench:space -- --files 1000000 --dir DIR --keep` (bench:space also
// times first scans and the peers; this is the quicker loop for the rescan alone).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    base: { type: 'string' },
  },
});
if (!values.dir) {
  console.error('bench-rescan: give the tree: --dir DIR');
  process.exit(2);
}
const dir = path.resolve(values.dir);
const rounds = Math.max(1, Number(values.rounds));

/** Runs a command under /usr/bin/time, its output read and dropped: wall and CPU seconds, peak. */
function measure(command, args, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'TIME %e %U %S %M', command, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.on('data', () => {});
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => {
      const match = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      if (status !== 0 || !match) {
        reject(new Error(`${command} failed (${status}): ${stderr.slice(-400)}`));
        return;
      }
      resolve({
        wall: Number(match[1]),
        cpu: Number(match[2]) + Number(match[3]),
        peakMB: (Number(match[4]) * 1024) / 1e6,
      });
    });
  });
}

const dataDirs = [];
/** A checkout's `plumb space scan DIR --json`, with a data folder (its hash cache) of its own. */
function plumb(name, checkout) {
  const data = mkdtempSync(path.join(tmpdir(), 'plumb-bench-rescan-'));
  dataDirs.push(data);
  return {
    name,
    run: () =>
      measure(
        process.execPath,
        [path.join(checkout, 'bin', 'plumb.js'), 'space', 'scan', dir, '--json'],
        {
          ...process.env,
          PLUMB_DATA_DIR: data,
        },
      ),
  };
}

const find = {
  name: 'find',
  run: () => measure('sh', ['-c', `find "$0" -type f -printf '%s %T@ %i\\n' > /dev/null`, dir]),
};
const scans = [plumb('rescan', root)];
if (values.base) scans.push(plumb('base rescan', path.resolve(values.base)));

try {
  for (const scan of scans) {
    console.log(`bench-rescan: ${scan.name}: a first scan leaves its hash cache…`);
    await scan.run();
  }
  await find.run(); // the walk's folders in the cache, as for the scans
  const ratios = new Map(scans.map((s) => [s.name, []]));
  const line = (name, r, ratio) =>
    `  ${name.padEnd(12)} ${r.wall.toFixed(2).padStart(6)} s wall ${r.cpu.toFixed(2).padStart(6)} s CPU ${r.peakMB.toFixed(0).padStart(5)} MB` +
    (ratio === undefined ? '' : `   ${ratio.toFixed(2)}× find`);
  for (let round = 1; round <= rounds; round += 1) {
    // Alternate who goes first, so neither always follows find.
    const order = round % 2 ? scans : [...scans].reverse();
    const results = [];
    for (const scan of order) results.push([scan, await scan.run()]);
    const walk = await find.run();
    console.log(`round ${round}:`);
    for (const [scan, r] of results) {
      ratios.get(scan.name).push(r.wall / walk.wall);
      console.log(line(scan.name, r, r.wall / walk.wall));
    }
    console.log(line('find', walk));
  }
  for (const [name, list] of ratios) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(
      `${name}: ratio to find ${list.map((r) => r.toFixed(2)).join(', ')} (median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)})`,
    );
  }
} finally {
  for (const data of dataDirs) rmSync(data, { recursive: true, force: true });
}
