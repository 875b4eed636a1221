/**
 * Every `--verify` says what it proved, first (issue 23): "Capacity checked: 4.70 GB written and
 * read back intact.", not only the capacity plan, on a pretend drive whose size is drawn.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { formatBytes } from '../../../app/common/format.js';
import { builtinPlan } from '../../../app/core/bench/builtin-plans.js';
import { scalePlan } from '../../../app/core/bench/plans.js';
import { ResultsStore } from '../../../app/core/bench/results-store.js';
import { runBenchmark } from '../../../app/core/bench/runner.js';
import { FakeDrive } from '../../helpers/fake-bench-io.js';
import { baseSeed, seededRandom } from '../../helpers/synthetic-samples.js';

let target: string;
let dataDir: string;
before(async () => {
  target = await mkdtemp(path.join(os.tmpdir(), 'plumb-verify-verdict-'));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'plumb-verify-verdict-data-'));
});
after(async () => {
  await rm(target, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

test('a passed --verify of the standard plan leads with the bytes it proved', async () => {
  const random = seededRandom(baseSeed());
  const scale = 0.001 + random() * 0.004;
  const document = await runBenchmark(
    {
      target,
      plan: scalePlan(builtinPlan('standard')!, scale),
      scale,
      verify: true,
      appVersion: '0.0.0-test',
      signal: new AbortController().signal,
      emit: () => undefined,
      store: new ResultsStore(path.join(dataDir, 'results')),
    },
    new FakeDrive({ totalBytes: 64e9, availableBytes: 60e9, readRate: 1.2e9 }),
  );
  const written = document.files
    .filter((f) => f.phase === 'write')
    .reduce((sum, f) => sum + f.bytes, 0);
  assert.equal(document.verify?.verdict, 'passed');
  assert.equal(document.verify.bytesChecked, written);
  assert.match(
    document.verify.message,
    new RegExp(
      `^Capacity checked: ${formatBytes(written)} written and read back intact\\. Every byte written was read back`,
    ),
  );
});
