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
        "import { parseSize } from '../../app/core/units.js';\nexport default parseSize;\n",
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

test('the renderer may import types from the contract', async () => {
  const code =
    "import type { VolumeInfo } from '../../app/contract/volume.js';\nexport type X = VolumeInfo;\n";
  assert.deepEqual(await restrictedImports('renderer/src/__layering_probe.ts', code), []);
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
