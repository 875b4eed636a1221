// plumb analyze on N rows (default 1,000,000) of equal and of varied sizes, printing the summary
// and printing --json: wall time, CPU time and the process's peak memory, as /usr/bin/time reports
// them. A script, not a test (no peer
// tool reads this CSV): `npm run bench:analyze [-- N]`. The rows are drawn from a fixed seed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seededRandom } from '../app/core/bench/seeded-random.js';
import { plumbBin } from '../tests/helpers/cli.js';
import { transferRows } from '../tests/helpers/transfer-rows.js';

const rows = Number(process.argv[2] ?? 1_000_000);
const time = '/usr/bin/time';
if (!existsSync(time)) {
  console.error('bench:analyze needs /usr/bin/time (GNU time) for the peak memory.');
  process.exit(1);
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-bench-analyze-'));
try {
  for (const sizes of ['equal', 'varied'] as const) {
    const file = path.join(dir, `${sizes}.csv`);
    writeFileSync(file, transferRows(rows, sizes, seededRandom(24)));
    for (const json of [false, true]) {
      // The document's text goes nowhere: held here, 1M rows of it would cost this process.
      const run = spawnSync(
        time,
        [
          '-f',
          '%e %U %S %M',
          process.execPath,
          plumbBin,
          'analyze',
          file,
          ...(json ? ['--json'] : []),
        ],
        { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 },
      );
      const [wall, user, system, peakKb] = run.stderr
        .trim()
        .split('\n')
        .at(-1)!
        .split(' ')
        .map(Number);
      console.log(
        `${rows} rows of ${sizes} sizes${json ? ', --json' : ''}: exit ${run.status}, ` +
          `${wall!.toFixed(1)} s wall, ${(user! + system!).toFixed(1)} s CPU, ` +
          `peak ${(peakKb! / 1024).toFixed(0)} MiB`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
