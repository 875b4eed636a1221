// The cost of --verify's block stamps on the timed write, as a paired run: timedWrite of the same
// file with and without `stamp`, alternating which goes first (ABBA), so drift on a loaded machine
// falls on both. Prints the median rate of each and the median of the per-pair ratios.
//   node scripts/bench-verify-stamp.mjs [--dir DIR] [--size MiB] [--pairs N]
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const native = createRequire(import.meta.url)(path.join(root, 'native/build/Release/plumb.node'));
const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: tmpdir() },
    size: { type: 'string', default: '256' },
    pairs: { type: 'string', default: '16' },
  },
});
const bytes = Number.parseInt(values.size, 10) * 1024 * 1024;
const pairs = Number.parseInt(values.pairs, 10);
const file = path.join(values.dir, `plumb-verify-stamp-${process.pid}.dat`);
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

const rates = { plain: [], stamped: [] };
try {
  for (let pair = 0; pair < pairs; pair += 1) {
    for (const kind of pair % 2 ? ['stamped', 'plain'] : ['plain', 'stamped']) {
      const options = kind === 'stamped' ? { stamp: { fileId: pair, runTag: 1 } } : {};
      const result = await native.timedWrite(file, bytes, options);
      rates[kind].push(bytes / result.seconds.transfer);
    }
  }
} finally {
  rmSync(file, { force: true });
}
const ratios = rates.plain.map((plain, i) => rates.stamped[i] / plain).sort((a, b) => a - b);
const gb = (rate) => `${(rate / 1e9).toFixed(2)} GB/s`;
console.log(
  `${values.dir}: ${pairs} pairs of ${values.size} MiB: plain ${gb(median(rates.plain))}, stamped ${gb(median(rates.stamped))}; stamped/plain per pair: median ${median(ratios).toFixed(3)}, range ${ratios[0].toFixed(3)}–${ratios.at(-1).toFixed(3)}`,
);
