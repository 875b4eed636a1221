/**
 * The setup's estimate and the engine size a run with the same rules (app/common/plan-kinds.ts):
 * for every built-in plan, at the setup's quick scale, 0.1 and full size, on volumes drawn at
 * random, the bytes the estimate shows are the bytes core plans before it writes one.
 * PLUMB_TEST_SEED replays a draw.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatBytes } from '../../../app/common/format.js';
import { planKindOf } from '../../../app/common/plan-kinds.js';
import { reserveFloor } from '../../../app/common/reserve.js';
import { builtinPlans } from '../../../app/core/bench/builtin-plans.js';
import { ResultsStore } from '../../../app/core/bench/results-store.js';
import { benchPlan, prepareBenchRun } from '../../../app/core/bench/start.js';
import { estimatePlan, typicalRates } from '../../../renderer/src/screens/bench/estimates.js';
import { FakeDrive } from '../../helpers/fake-bench-io.js';
import { baseSeed, between, logBetween, seededRandom } from '../../helpers/synthetic-samples.js';

const GB = 1e9;
/** The setup's scale before the user changes it (TestSetup's first choice), 10 % and full size. */
const scales = [0.01, 0.1, 1];
const seed = baseSeed();

let target: string;
let dataDir: string;
/**
 * The paired plan's second folder, on another volume as the plan means it (two drives): the
 * estimate shows one folder's share, and two on one volume the engine counts twice.
 */
let second: string | null = null;
const otherVolume = '/dev/shm';
before(async () => {
  target = await mkdtemp(path.join(os.tmpdir(), 'plumb-estimate-'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'plumb-estimate-data-'));
  const other = await stat(otherVolume).catch(() => null);
  if (other?.isDirectory() && other.dev !== (await stat(target)).dev)
    second = await mkdtemp(path.join(otherVolume, 'plumb-estimate-with-'));
});
after(async () => {
  for (const dir of [target, second, dataDir])
    if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the estimate’s bytes are the engine’s planned bytes', () => {
  for (const builtin of builtinPlans) {
    it(`for the ${builtin.name} plan at every scale, on volumes drawn at random`, async (t) => {
      const random = seededRandom(seed + builtinPlans.indexOf(builtin));
      const kind = planKindOf(builtin);
      if (kind.options.secondFolder && !second) {
        t.skip(`no second volume here for its other folder (${otherVolume} is not one)`);
        return;
      }
      for (let draw = 0; draw < 8; draw += 1) {
        // From a small card to a large SSD, anywhere from nearly full to nearly empty.
        const totalBytes = Math.round(logBetween(random, 8 * GB, 8000 * GB));
        const availableBytes = Math.round(totalBytes * between(random, 0.05, 0.98));
        // Half the draws set the setup's "Write in all" / "Check at most" where the kind has one.
        const capBytes =
          kind.options.total && random() < 0.5
            ? Math.round(logBetween(random, 1 * GB, availableBytes))
            : undefined;
        const volume = {
          totalBytes,
          availableBytes,
          bus: null,
          medium: null,
          directIoAlignment: 4096,
          fsType: 'fakefs',
        };
        for (const chosenScale of scales) {
          // As the setup sends it: a kind the scale does not apply to runs at full size.
          const scale = kind.options.quickScale ? chosenScale : 1;
          const where = `seed ${seed}, ${builtin.name} at ${scale} on ${formatBytes(availableBytes)} free of ${formatBytes(totalBytes)}${capBytes ? `, cap ${formatBytes(capBytes)}` : ''}`;
          const estimate = estimatePlan(
            builtin,
            { scale, totalBytes: capBytes },
            volume,
            typicalRates(volume),
          );
          const plan = await benchPlan(builtin.name, scale);
          // As the service starts a run from the setup (bench.start): the UI's reserve floor.
          const prepared = await prepareBenchRun(
            {
              path: target,
              plan,
              scale,
              buffered: false,
              keepFiles: false,
              reserveFloor,
              ...(capBytes === undefined ? {} : { totalBytes: capBytes }),
              ...(kind.options.secondFolder && second ? { pairedWith: second } : {}),
            },
            {
              signal: new AbortController().signal,
              emit: () => undefined,
              store: new ResultsStore(path.join(dataDir, 'results')),
              io: new FakeDrive({ totalBytes, availableBytes }),
            },
          ).catch((error: unknown) => error as Error);
          if (prepared instanceof Error) {
            // The engine refused it before writing: the estimate said it does not fit.
            assert.equal(estimate.fits, false, `${where}: ${prepared.message}`);
            continue;
          }
          const planned = prepared.planned!;
          assert.equal(estimate.writeBytes, planned.writeBytes, `${where}: bytes written`);
          assert.equal(estimate.readBytes, planned.readBytes, `${where}: bytes read`);
          assert.equal(estimate.spaceBytes, planned.spaceBytes, `${where}: space held`);
          assert.equal(estimate.files, planned.files, `${where}: files`);
          assert.equal(estimate.fits, true, where);
        }
      }
    });
  }
});
