/** The layering rules are lint rules; check that they really reject what they should. */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import { repoRoot } from '../helpers/cli.js';

const eslint = new ESLint({ cwd: repoRoot });

async function restrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

test('the renderer may not import Node built-ins, app/ code, or Electron', async () => {
  const file = 'renderer/src/__layering_probe.ts';
  assert.equal(
    (await restrictedImports(file, "import fs from 'node:fs';\nexport default fs;\n")).length,
    1,
  );
  assert.equal(
    (await restrictedImports(file, "import path from 'path';\nexport default path;\n")).length,
    1,
  );
  assert.equal(
    (
      await restrictedImports(
        file,
        "import { bytesPerSecond } from '../../app/core/paths.js';\nexport default bytesPerSecond;\n",
      )
    ).length,
    1,
  );
  assert.equal(
    (
      await restrictedImports(
        file,
        "import { operations } from '../../app/contract/index.js';\nexport default operations;\n",
      )
    ).length,
    1,
  );
  assert.equal(
    (
      await restrictedImports(
        file,
        "import { ipcRenderer } from 'electron';\nexport default ipcRenderer;\n",
      )
    ).length,
    1,
  );
});

test('the renderer may import types from the contract, and the shared pure layer', async () => {
  const code =
    "import type { VolumeInfo } from '../../app/contract/volume.js';\nexport type X = VolumeInfo;\n";
  assert.deepEqual(await restrictedImports('renderer/src/__layering_probe.ts', code), []);
  const common =
    "import { formatBytes } from '../../app/common/format.js';\nexport default formatBytes;\n";
  assert.deepEqual(await restrictedImports('renderer/src/__layering_probe.ts', common), []);
});

test('app/common imports nothing but its own files, and uses no Node or browser globals', async () => {
  const file = 'app/common/__layering_probe.ts';
  for (const from of ['node:path', 'zod', 'react', '../contract/errors.js', '../core/paths.js']) {
    const code = `import * as m from '${from}';\nexport default m;\n`;
    assert.equal((await restrictedImports(file, code)).length, 1, from);
  }
  const own = "import { formatBytes } from './format.js';\nexport default formatBytes;\n";
  assert.deepEqual(await restrictedImports(file, own), []);
  const [result] = await eslint.lintText('export const cwd = () => process.cwd();\n', {
    filePath: path.join(repoRoot, file),
  });
  assert.deepEqual(
    result?.messages.map((m) => m.ruleId),
    ['no-restricted-globals'],
  );
});

test('core may not import Electron or a front door', async () => {
  const file = 'app/core/__layering_probe.ts';
  assert.equal(
    (await restrictedImports(file, "import { app } from 'electron';\nexport default app;\n"))
      .length,
    1,
  );
  assert.equal(
    (
      await restrictedImports(
        file,
        "import { serve } from '../web/server.js';\nexport default serve;\n",
      )
    ).length,
    1,
  );
  assert.equal(
    (
      await restrictedImports(
        file,
        "import { main } from '../cli/main.js';\nexport default main;\n",
      )
    ).length,
    1,
  );
});

test('planner and space never import bench, and still may not import a front door', async () => {
  const fromBench = (up: string) =>
    `import { ResultsStore } from '${up}bench/results-store.js';\nexport default ResultsStore;\n`;
  for (const domain of ['planner', 'space']) {
    const file = `app/core/${domain}/__layering_probe.ts`;
    const [message, ...more] = await restrictedImports(file, fromBench('../'));
    assert.match(message ?? '', new RegExp(`app/core/${domain} never imports app/core/bench`));
    assert.deepEqual(more, []);
    const frontDoor = "import { main } from '../../cli/main.js';\nexport default main;\n";
    assert.equal((await restrictedImports(file, frontDoor)).length, 1, `${domain} → cli`);
    const paths = "import { plumbFolders } from '../paths.js';\nexport default plumbFolders;\n";
    assert.deepEqual(await restrictedImports(file, paths), [], `${domain} → paths`);
  }
  // Other domains of core may still use the bench (the report prints stored results).
  const report = 'app/core/report/__layering_probe.ts';
  assert.deepEqual(await restrictedImports(report, fromBench('../')), []);
});

test('only the OS modules of core read process.platform', async () => {
  const platformRule = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-properties');
  };
  const reads = [
    "export const mac = process.platform === 'darwin';\n",
    'export const { platform } = process;\n',
    "import os from 'node:os';\nexport const name = os.platform();\n",
  ];
  for (const code of reads) {
    const [message, ...more] = await platformRule('app/core/space/__layering_probe.ts', code);
    assert.match(message?.message ?? '', /OS module/, code);
    assert.deepEqual(more, []);
    assert.deepEqual(await platformRule('app/core/os/__layering_probe.ts', code), [], code);
  }
  const asked = "import { hostOs } from '../os/index.js';\nexport const mac = hostOs.platform;\n";
  assert.deepEqual(await platformRule('app/core/space/__layering_probe.ts', asked), []);
});

async function layerCrossings(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'plumb/renderer-layers')
    .map((m) => m.message);
}

const importOf = (from: string) => `import * as m from '${from}';\nexport default m;\n`;

test('a screen never imports another screen, at any depth, but its own files and ui/', async () => {
  const crossings: [string, string][] = [
    ['renderer/src/screens/space/__probe.ts', '../bench/ResultsScreen.js'],
    ['renderer/src/screens/space/sparse/__probe.ts', '../../volumes/VolumeList.js'],
    ['renderer/src/screens/volumes/__probe.ts', '../planner/PlannerScreen.js'],
  ];
  for (const [file, from] of crossings) {
    const messages = await layerCrossings(file, importOf(from));
    assert.equal(messages.length, 1, from);
    assert.match(messages[0]!, /A screen never imports another screen .*renderer\/src\/ui/);
  }
  // A re-export and a type-only import cross the line too.
  assert.equal(
    (
      await layerCrossings(
        'renderer/src/screens/space/__probe.ts',
        "export { folderFor } from '../bench/VolumePicker.js';\n",
      )
    ).length,
    1,
  );
  assert.equal(
    (
      await layerCrossings(
        'renderer/src/screens/space/__probe.ts',
        "import type { Target } from '../bench/VolumePicker.js';\nexport type T = Target;\n",
      )
    ).length,
    1,
  );
  for (const [file, from] of <[string, string][]>[
    ['renderer/src/screens/bench/setup/__probe.ts', '../live-run.js'],
    ['renderer/src/screens/bench/__probe.ts', '../../ui/planner/host.js'],
    ['renderer/src/screens/planner/__probe.ts', '../../report/ExportPdfButton.js'],
    ['renderer/src/screens/space/__probe.ts', '../../session.js'],
  ]) {
    assert.deepEqual(await layerCrossings(file, importOf(from)), [], from);
  }
});

test('ui/ imports no screen and no report; the report imports no screen', async () => {
  for (const [file, from] of <[string, string][]>[
    ['renderer/src/ui/__probe.ts', '../screens/bench/live-run.js'],
    ['renderer/src/ui/result/__probe.ts', '../../report/ExportPdfButton.js'],
    ['renderer/src/ui/charts/__probe.ts', '../../screens/planner/PlannerScreen.js'],
    ['renderer/src/report/__probe.ts', '../screens/bench/CompareView.js'],
    ['renderer/src/report/__probe.ts', '../screens/planner/planner.css'],
  ]) {
    assert.equal((await layerCrossings(file, importOf(from))).length, 1, `${file} ← ${from}`);
  }
  for (const [file, from] of <[string, string][]>[
    ['renderer/src/ui/result/__probe.ts', '../charts/RateChart.js'],
    ['renderer/src/report/__probe.ts', '../ui/result/Verdict.js'],
    ['renderer/src/shell/__probe.ts', '../screens/bench/run-store.js'],
  ]) {
    assert.deepEqual(await layerCrossings(file, importOf(from)), [], `${file} ← ${from}`);
  }
});
