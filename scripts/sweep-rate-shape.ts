// How often the rate-shape analysis misses, over many seeds of each property test's draws
// (tests/helpers/rate-draws.ts): `node --import tsx scripts/sweep-rate-shape.ts [FIRST_SEED]
// [DRAWS] [KINDS]` (SWEEP_SHOW=N lists N misses of each kind, 8 unless set). A property test that holds in 1 draw of 400 fails a CI run in about one of
// three: the tests' bounds are set where this sweep shows none in thousands.
import {
  burstyCacheDraw,
  cliffDraw,
  sawtoothDraw,
  smallCacheDraw,
  steadyDraw,
  stepsDraw,
  unsteadyCacheDraw,
  type Draw,
} from '../tests/helpers/rate-draws.js';
import { seededRandom } from '../app/core/bench/seeded-random.js';

const kinds: Record<string, (random: () => number) => Draw> = {
  cliff: (random) => cliffDraw(random),
  capped: (random) => cliffDraw(random, true),
  steps: stepsDraw,
  bursty: (random) => burstyCacheDraw(random),
  tiers: (random) => burstyCacheDraw(random, 2),
  unsteady: unsteadyCacheDraw,
  small: smallCacheDraw,
  stalled: (random) => burstyCacheDraw(random, 2, true),
  saw: (random) => sawtoothDraw(random),
  bsaw: (random) => sawtoothDraw(random, true),
  steady: (random) => steadyDraw(random),
  bsteady: (random) => steadyDraw(random, true),
};
const first = Number(process.argv[2] ?? 1);
const draws = Number(process.argv[3] ?? 200);
const chosen = process.argv[4]?.split(',') ?? Object.keys(kinds);
for (const kind of chosen) {
  const misses: string[] = [];
  const started = performance.now();
  for (let seed = first; seed < first + draws; seed += 1) {
    const draw = kinds[kind]!(seededRandom(seed));
    const wrong = draw.check();
    if (wrong) misses.push(`seed ${seed}: ${wrong} (${draw.label})`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`${kind}: ${misses.length} of ${draws} missed (${seconds.toFixed(0)} s)`);
  for (const miss of misses.slice(0, Number(process.env.SWEEP_SHOW ?? 8))) console.log(`  ${miss}`);
}
