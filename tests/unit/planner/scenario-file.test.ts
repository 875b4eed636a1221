import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { builtInCatalogue } from '../../../app/core/planner/catalogue.js';
import { evaluateScenario } from '../../../app/core/planner/evaluate.js';
import { loadScenarioFile, parseScenario } from '../../../app/core/planner/scenario-file.js';

const valid = () => ({
  host: { kind: 'apple-silicon', port: 'tb5' },
  data: { keepInternal: '250GB', movable: '400GB' },
  workload: { bursts: [{ name: 'Import', size: '100GB' }] },
  options: [{ internalCapacity: '512GB', external: { device: 'tb5-2tb' } }],
});

/** The one-line message a bad scenario is refused with. */
function refusal(data: unknown): string {
  try {
    evaluateScenario(parseScenario(data, 'plan.json'), builtInCatalogue());
  } catch (error) {
    assert.equal((error as { code?: string }).code, 'EINVAL');
    const message = (error as Error).message;
    assert.doesNotMatch(message, /\n/);
    return message;
  }
  assert.fail('the scenario was accepted');
}

test('sizes accept bytes or units, and defaults fill the rest', () => {
  const scenario = parseScenario({ ...valid(), data: { keepInternal: 250e9, movable: '0.4 TB' } });
  assert.equal(scenario.data.keepInternal, 250e9);
  assert.equal(scenario.data.movable, 400e9);
  assert.equal(scenario.horizonYears, 4);
  assert.equal(scenario.workload.bursts[0]!.repeat, 1);
  assert.equal(scenario.workload.bursts[0]!.target, 'movable');
  assert.equal(
    parseScenario({ ...valid(), data: { keepInternal: '8GiB', movable: 0 } }).data.keepInternal,
    8 * 1024 ** 3,
  );
});

test('invalid scenarios are refused in one line naming the field and what to do', () => {
  const cases: [unknown, RegExp][] = [
    [{ ...valid(), host: undefined }, /^plan\.json: host: is required/],
    [
      { ...valid(), data: { keepInternal: 'lots', movable: '1TB' } },
      /data\.keepInternal: write a size with a unit, like "100GB"/,
    ],
    [{ ...valid(), horizonYears: 40 }, /horizonYears: /],
    [{ ...valid(), colour: 'blue' }, /unknown field "colour"/],
    [{ ...valid(), options: [] }, /options: give at least one option/],
    [
      { ...valid(), host: { kind: 'intel-mac', port: 'tb5' } },
      /host\.port: Intel Macs have Thunderbolt 3 at most/,
    ],
    [{ ...valid(), host: { kind: 'apple-silicon', port: 'firewire' } }, /host\.port: /],
    [
      { ...valid(), options: [{ internalCapacity: '512GB', external: { device: 'floppy' } }] },
      /options\.0\.external\.device: unknown device "floppy"; use one of .*tb5-2tb/,
    ],
    [
      {
        ...valid(),
        options: [{ internalCapacity: '512GB', external: { device: 'samsung-980-1tb' } }],
      },
      /"samsung-980-1tb" is an internal SSD; choose an external one/,
    ],
    [
      {
        ...valid(),
        devices: [
          {
            id: 'mine',
            name: 'Mine',
            interface: 'usb4',
            capacityBytes: '1TB',
            writeBytesPerSecond: 3e9,
            cacheKind: 'dynamic-tlc',
          },
        ],
      },
      /devices\.0\.cacheBytes: a dynamic-tlc cache needs its size/,
    ],
  ];
  for (const [data, pattern] of cases) assert.match(refusal(data), pattern);
});

test("a user's own device can be used by id, and its figures are marked as theirs", () => {
  const evaluation = evaluateScenario(
    parseScenario({
      ...valid(),
      devices: [
        {
          id: 'my-usb4',
          name: 'My USB4 SSD',
          interface: 'usb4',
          capacityBytes: '4TB',
          priceUsd: 500,
          writeBytesPerSecond: 3.5e9,
          afterCacheWriteBytesPerSecond: 1e9,
          cacheKind: 'dynamic-tlc',
          cacheBytes: '400GB',
        },
      ],
      options: [{ internalCapacity: '512GB', external: { device: 'my-usb4' } }],
    }),
    builtInCatalogue(),
  );
  const option = evaluation.options[0]!;
  assert.equal(option.costUsd, 500);
  assert.equal(option.disks[1]!.device.origin, 'custom');
  assert.ok(Math.abs(option.bursts[0]!.totalSeconds - 100 / 3.5) < 1e-9);
});

let dir = '';
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plumb-scenario-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('files: missing, not JSON, and invalid files get clear errors', async () => {
  await assert.rejects(loadScenarioFile(path.join(dir, 'nope.json')), {
    code: 'ENOENT',
    message: /Cannot read the scenario .*nope\.json: no such file\./,
  });
  const broken = path.join(dir, 'broken.json');
  await writeFile(broken, '{ "host": ');
  await assert.rejects(loadScenarioFile(broken), {
    code: 'EINVAL',
    message: /broken\.json is not valid JSON/,
  });
  const wrong = path.join(dir, 'wrong.json');
  await writeFile(wrong, JSON.stringify({ ...valid(), horizonYears: 'four' }));
  await assert.rejects(loadScenarioFile(wrong), {
    code: 'EINVAL',
    message: /wrong\.json: horizonYears: /,
  });
  const good = path.join(dir, 'good.json');
  await writeFile(good, JSON.stringify(valid()));
  assert.equal((await loadScenarioFile(good)).options.length, 1);
});
