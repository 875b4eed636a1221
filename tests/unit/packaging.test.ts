// The shipped desktop app's hardening, read from the packaging config electron-builder uses.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// electron-builder reads its YAML config with js-yaml (its dependency): the same reader here.
const { load } = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const config = load(readFileSync(path.join(root, 'build', 'electron-builder.yml'), 'utf8')) as {
  electronFuses?: Record<string, unknown>;
  asar?: unknown;
  files?: string[];
};

test('the Electron fuses turn off every way to run other code in the app', () => {
  const fuses = config.electronFuses;
  assert.ok(fuses, 'build/electron-builder.yml has electronFuses');
  assert.equal(fuses.runAsNode, false, 'ELECTRON_RUN_AS_NODE would make the app a Node runtime');
  assert.equal(
    fuses.enableNodeOptionsEnvironmentVariable,
    false,
    'NODE_OPTIONS could --require code',
  );
  assert.equal(fuses.enableNodeCliInspectArguments, false, '--inspect would open a debugger');
  assert.equal(fuses.enableEmbeddedAsarIntegrityValidation, true);
  assert.equal(fuses.onlyLoadAppFromAsar, true);
});

test('the app is packed in an asar, so integrity validation has a hash to check', () => {
  // electron-builder packs an asar unless `asar: false`; the fuses above need one.
  assert.notEqual(config.asar, false);
  assert.ok(config.files?.some((entry) => entry.startsWith('dist/')));
});
