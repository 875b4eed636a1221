// `plumb plan` as a user runs it: the example scenarios print, --json parses, bad input is refused.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DeviceProfile, Evaluation } from '../../app/contract/planner.js';
import { DeviceStore } from '../../app/core/planner/device-store.js';
import { repoRoot, runPlumb } from '../helpers/cli.js';

const example = (name: string) => path.join(repoRoot, 'examples', 'scenarios', name);
// An empty data folder, so results saved elsewhere on this machine do not leak in.
const env = { PLUMB_DATA_DIR: path.join(os.tmpdir(), 'plumb-plan-cli-empty') };

test('plumb plan prints the TB5-vs-USB4 seed case: 44.8 s, 27.0 s and the crossover', () => {
  const result = runPlumb(['plan', example('tb5-vs-usb4-100gb.json')], { env });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /Import 100 GB of video: 44\.8 s \(50 GB in cache, 50 GB after\)/);
  assert.match(result.stdout, /Import 100 GB of video: 27\.0 s/);
  assert.match(
    result.stdout,
    /at 60 GB .*512 GB \+ Thunderbolt 5 SSD is faster below, 512 GB \+ USB4 SSD above/,
  );
  assert.match(result.stdout, /^Choose 512 GB \+ USB4 SSD\.$/m);
  assert.match(result.stdout, /\[seed-003\] Why SSDs slow down, and how to avoid it/);
});

test('plumb plan prints the seed 000 saving, and --json matches the contract', () => {
  const text = runPlumb(['plan', example('small-internal-vs-2tb.json')], { env });
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /about \$200–220 less than 2 TB internal/);
  const json = runPlumb(['plan', example('small-internal-vs-2tb.json'), '--json'], { env });
  assert.equal(json.status, 0, json.stderr);
  const evaluation = Evaluation.parse(JSON.parse(json.stdout));
  assert.equal(evaluation.recommendation.option, 1);
});

test('every example scenario prints', () => {
  for (const name of ['intel-mac-and-dock.json', 'repeated-imports.json']) {
    const result = runPlumb(['plan', example(name)], { env });
    assert.equal(result.status, 0, `${name}: ${result.stderr}`);
    assert.match(result.stdout, /Assumptions:/);
  }
  const intel = runPlumb(['plan', example('intel-mac-and-dock.json')], { env });
  assert.match(intel.stdout, /falls back to USB 3\.2 Gen 2, about 1 GB\/s/);
  assert.match(intel.stdout, /through a TB4 hub or TB5 dock run at about 1\.6 GB\/s/);
  const repeated = runPlumb(['plan', example('repeated-imports.json')], { env });
  assert.match(repeated.stdout, /Dump a 40 GB card ×3, .* in all \(/);
});

test('bad command lines exit 2; bad scenarios exit 1 with one line naming the field', async () => {
  const none = runPlumb(['plan'], { env });
  assert.equal(none.status, 2);
  assert.match(none.stderr, /^plumb plan: Give one scenario file/);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'plumb-plan-'));
  try {
    const file = path.join(dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify({
        host: { kind: 'apple-silicon', port: 'tb5' },
        data: { keepInternal: 'huge', movable: 0 },
        options: [{ internalCapacity: '512GB' }],
      }),
    );
    const bad = runPlumb(['plan', file], { env });
    assert.equal(bad.status, 1);
    assert.equal(bad.stderr.trim().split('\n').length, 1);
    assert.match(
      bad.stderr,
      /^plumb plan: .*bad\.json: data\.keepInternal: write a size with a unit/,
    );
    const missing = runPlumb(['plan', path.join(dir, 'missing.json')], { env });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /Cannot read the scenario .*missing\.json: no such file/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an SSD saved in the app can be named in a scenario file by its id', async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'plumb-plan-saved-'));
  try {
    const mine = {
      id: 'my-usb-ssd',
      name: 'My old USB SSD',
      interface: 'usb32g2' as const,
      capacityBytes: 1e12,
      priceUsd: 0,
      writeBytesPerSecond: 900e6,
      readBytesPerSecond: 950e6,
    };
    await new DeviceStore(path.join(dataDir, 'planner-devices.json')).save(
      DeviceProfile.parse(mine),
    );
    const file = path.join(dataDir, 'scenario.json');
    await writeFile(
      file,
      JSON.stringify({
        host: { kind: 'apple-silicon', port: 'tb5' },
        data: { keepInternal: '250GB', movable: '400GB' },
        workload: { bursts: [{ name: 'Import', size: '50GB', target: 'movable' }] },
        options: [
          { name: 'Keep my SSD', internalCapacity: '512GB', external: { device: mine.id } },
          { name: 'TB5', internalCapacity: '512GB', external: { device: 'tb5-2tb' } },
        ],
      }),
    );
    const result = runPlumb(['plan', file], { env: { PLUMB_DATA_DIR: dataDir } });
    assert.equal(result.status, 0, result.stderr);
    assert.match(
      result.stdout,
      /external My old USB SSD, 1 TB via USB 3\.2 Gen 2; write 0\.90 GB\/s/,
    );
    // Without the saved device the same file names an unknown device.
    const elsewhere = runPlumb(['plan', file], { env });
    assert.equal(elsewhere.status, 1);
    assert.match(elsewhere.stderr, /unknown device "my-usb-ssd"/);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
