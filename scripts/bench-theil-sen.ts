// Theil–Sen on N transfers (default 1,000,000): time and peak memory, to show it stays
// O(n log n) time and O(n) memory. A script, not a test: `npm run bench:theil-sen [-- N]`.
import { theilSen } from '../app/core/analysis/theil-sen.js';
import { seededRandom } from '../app/core/bench/seeded-random.js';

const n = Number(process.argv[2] ?? 1_000_000);
const random = seededRandom(1);
const sizes = [4096, 65536, 1 << 20, 16 << 20];
const points: [number, number][] = [];
for (let i = 0; i < n; i += 1) {
  const bytes = sizes[i % 4]! * (1 + (i % 7));
  // 2 GB/s with 5 % jitter, 200 µs per transfer, and one transfer in ten slowed at random.
  const seconds =
    2e-4 + (bytes / 2e9) * (1 + 0.05 * random()) + (random() < 0.1 ? random() * 0.01 : 0);
  points.push([bytes, seconds]);
}
const before = process.cpuUsage();
const started = performance.now();
const fit = theilSen(points)!;
const cpu = process.cpuUsage(before);
console.log(
  `${n} points: ${(1 / (fit.slope * 1e9)).toFixed(4)} GB/s, ${(fit.intercept * 1e6).toFixed(1)} µs; ` +
    `${((performance.now() - started) / 1000).toFixed(2)} s wall, ${(cpu.user / 1e6).toFixed(2)} s CPU, ` +
    `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
);
