/**
 * Scenarios as documents (issue 16), through the contract's dispatcher as every front door calls
 * it: the examples open, and a scenario round-trips through save, a restart, open, duplicate,
 * import and export, as the same JSON file `plumb plan` reads.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { SavedScenario, Scenario } from '../../../app/contract/planner.js';
import { createDispatcher } from '../../../app/core/dispatch.js';
import { builtInCatalogue } from '../../../app/core/planner/catalogue.js';
import { evaluateScenario } from '../../../app/core/planner/evaluate.js';
import { loadScenarioFile } from '../../../app/core/planner/scenario-file.js';
import { createHandlers } from '../../../app/core/services.js';
import { testContext } from '../../helpers/context.js';

let dir = '';
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plumb-scenarios-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A dispatcher whose scenarios live in `folder`; a new one is a restart of the app. */
function plannerAt(folder: string) {
  const app = testContext(path.join(dir, 'app'), { plannerScenarios: folder });
  const dispatcher = createDispatcher(createHandlers(app, 'web'));
  const context = { emit: () => undefined };
  return <T>(operation: string, input: unknown) =>
    dispatcher.call(operation as never, input as never, context) as Promise<T>;
}

type Listed = { saved: SavedScenario[]; examples: { id: string; name: string }[] };
type Saved = Listed & { entry: SavedScenario };

test('every example in examples/scenarios opens from the planner and plans', async () => {
  const call = plannerAt(path.join(dir, 'examples'));
  const { examples, saved } = await call<Listed>('planner.scenarios.list', {});
  assert.deepEqual(saved, []);
  const onDisk = (await readdir(path.join(import.meta.dirname, '../../../examples/scenarios')))
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -5))
    .sort();
  assert.deepEqual(examples.map((e) => e.id).sort(), onDisk, 'every example file is offered');
  assert.ok(examples.some((e) => e.id === 'tb5-vs-usb4-100gb' && /seed 003/.test(e.name)));
  for (const example of examples) {
    const { scenario } = await call<{ scenario: Scenario }>('planner.scenarios.open', {
      from: 'example',
      id: example.id,
    });
    const file = await loadScenarioFile(
      path.join(import.meta.dirname, '../../../examples/scenarios', `${example.id}.json`),
    );
    assert.deepEqual(scenario, file, `${example.id} opens as plumb plan reads it`);
    assert.ok(evaluateScenario(scenario, builtInCatalogue()).options.length > 0);
  }
  await assert.rejects(call('planner.scenarios.open', { from: 'example', id: 'nope' }), {
    code: 'ENOENT',
    message: /no example scenario "nope"; use one of .*tb5-vs-usb4-100gb/,
  });
});

test('save, restart, open, duplicate, delete and export round-trip one document', async () => {
  const folder = path.join(dir, 'round-trip');
  let call = plannerAt(folder);
  const { scenario: example } = await call<{ scenario: Scenario }>('planner.scenarios.open', {
    from: 'example',
    id: 'tb5-vs-usb4-100gb',
  });
  // A scenario the user edited, with one SSD of their own the options use and one they do not.
  const own = {
    id: 'mine-fit-2tb',
    name: 'My 2 TB NVMe',
    interface: 'nvme-internal',
    placement: 'internal',
    capacityBytes: 2e12,
    priceUsd: 140 + Math.round(Math.random() * 100),
    writeBytesPerSecond: 5e9,
  };
  const unused = { ...own, id: 'mine-unused', name: 'Not in any option' };
  const edited = {
    ...example,
    name: `Edited ${Math.random().toString(36).slice(2, 8)}`,
    host: { kind: 'windows-pc', port: 'tb4-usb4', throughDock: false },
    devices: [own, unused],
    options: [
      ...example.options.map((o) => ({ ...o, internalUpgradeUsd: 0 })),
      { internalCapacity: 2e12, internalDevice: own.id },
    ],
  };
  const first = await call<Saved>('planner.scenarios.save', { scenario: edited });
  assert.match(first.entry.id, /^edited-[a-z0-9]+-[0-9a-f]{4}$/);
  assert.deepEqual(
    first.saved.map((s) => s.name),
    [edited.name],
  );

  call = plannerAt(folder); // a restart: a new store on the same folder
  const listed = await call<Listed>('planner.scenarios.list', {});
  assert.deepEqual(listed.saved, first.saved, 'the list survives a restart');
  const { scenario: reopened } = await call<{ scenario: Scenario }>('planner.scenarios.open', {
    from: 'saved',
    id: first.entry.id,
  });
  assert.equal(reopened.name, edited.name);
  assert.deepEqual(
    reopened.devices.map((d) => d.id),
    [own.id],
    'the SSD the options use travels with the scenario; the unused one does not',
  );
  const fitted = evaluateScenario(reopened, builtInCatalogue()).options.at(-1)!;
  assert.equal(fitted.costUsd, own.priceUsd, 'the fitted SSD keeps its price');

  // Export is the saved file, byte for byte, and plumb plan's parser reads it back the same.
  const exported = await call<{ fileName: string; text: string }>('planner.scenarios.export', {
    scenario: reopened,
  });
  assert.equal(exported.fileName, `${edited.name.toLowerCase().replace(' ', '-')}.json`);
  assert.equal(exported.text, await readFile(path.join(folder, `${first.entry.id}.json`), 'utf8'));
  const exportFile = path.join(dir, exported.fileName);
  await writeFile(exportFile, exported.text);
  assert.deepEqual(await loadScenarioFile(exportFile), reopened);

  // Saving in place keeps the id; a duplicate is a new document named "(copy)".
  const renamed = await call<Saved>('planner.scenarios.save', {
    id: first.entry.id,
    scenario: { ...reopened, horizonYears: 7 },
  });
  assert.equal(renamed.saved.length, 1);
  const copy = await call<Saved>('planner.scenarios.duplicate', { id: first.entry.id });
  assert.notEqual(copy.entry.id, first.entry.id);
  assert.equal(copy.entry.name, `${edited.name} (copy)`);
  const { scenario: copied } = await call<{ scenario: Scenario }>('planner.scenarios.open', {
    from: 'saved',
    id: copy.entry.id,
  });
  assert.deepEqual(copied, { ...reopened, horizonYears: 7, name: `${edited.name} (copy)` });

  const afterDelete = await call<Listed>('planner.scenarios.delete', { id: first.entry.id });
  assert.deepEqual(
    afterDelete.saved.map((s) => s.id),
    [copy.entry.id],
  );
  await assert.rejects(call('planner.scenarios.open', { from: 'saved', id: first.entry.id }), {
    code: 'ENOENT',
  });
  await assert.rejects(call('planner.scenarios.delete', { id: first.entry.id }), {
    code: 'ENOENT',
  });
  assert.deepEqual(
    (await readdir(folder)).sort(),
    [`${copy.entry.id}.json`],
    'no temporary files are left',
  );
});

test('import checks a file with the parser plumb plan uses; a bad one changes nothing', async () => {
  const folder = path.join(dir, 'import');
  const call = plannerAt(folder);
  const text = await readFile(
    path.join(import.meta.dirname, '../../../examples/scenarios/intel-mac-and-dock.json'),
    'utf8',
  );
  const imported = await call<Saved & { scenario: Scenario }>('planner.scenarios.import', {
    text,
    fileName: 'intel-mac-and-dock.json',
  });
  assert.equal(imported.scenario.host.kind, 'intel-mac');
  assert.deepEqual(
    imported.saved.map((s) => s.id),
    [imported.entry.id],
  );
  const refusals: [string, RegExp][] = [
    ['{"name": ', /^plan\.json is not valid JSON \(.*\); see examples\/scenarios/],
    [
      text.replace('"tb3"', '"tb5"'),
      /^plan\.json: host\.port: Intel Macs have Thunderbolt 3 at most/,
    ],
    [text.replace('"horizonYears"', '"horizon"'), /^plan\.json: unknown field "horizon"/],
  ];
  for (const [bad, message] of refusals) {
    await assert.rejects(
      call('planner.scenarios.import', { text: bad, fileName: '/somewhere/plan.json' }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'EINVAL');
        assert.match(error.message, message);
        assert.doesNotMatch(error.message, /\n/);
        return true;
      },
    );
  }
  assert.equal((await readdir(folder)).length, 1, 'refused imports leave no file');
  // Ids are names of files in the data folder: nothing else reaches the file system.
  for (const id of ['../escape', 'a/b', '', 'UPPER']) {
    await assert.rejects(call('planner.scenarios.delete', { id }), { code: 'EINVAL' });
  }
});
