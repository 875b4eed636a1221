/**
 * The addon's layers, as @parcel/watcher keeps them: the engines and per-OS backends are plain C++
 * that know nothing of Node-API, and native/src/napi holds every binding. And native/index.d.ts,
 * the bottom of the TypeScript layers, imports nothing from app/.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../helpers/cli.js';

const src = path.join(repoRoot, 'native', 'src');
const bindingsFolder = 'napi';
const nodeApiHeaders = new Set(['napi.h', 'node_api.h', 'js_native_api.h', 'node_api_types.h']);

/** The #include lines of a C++ file that bring in Node-API: its headers, or a binding's header. */
function napiIncludes(text: string): string[] {
  return [...text.matchAll(/^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]/gm)]
    .map((match) => match[1] ?? '')
    .filter(
      (name) =>
        nodeApiHeaders.has(path.posix.basename(name)) || name.split('/').includes(bindingsFolder),
    );
}

/** Every C++ source and header under native/src, as a path from there with forward slashes. */
const sources = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .map((file) => file.split(path.sep).join('/'))
  .filter((file) => /\.(cc|h)$/.test(file));
const inBindings = (file: string) => file.startsWith(`${bindingsFolder}/`);

describe('Node-API stays in native/src/napi', () => {
  it('recognises what brings Node-API in, and nothing else', () => {
    const text = [
      '// #include <napi.h> in a comment is not an include',
      '#include <napi.h>',
      '#  include "napi/errors.h"',
      '#include <node_api.h>',
      '#include "../napi/io_js.h"',
      '#include "scan/scan.h"',
      '#include <string>',
      '#include "engine/detached_pool.h"',
    ].join('\n');
    assert.deepEqual(napiIncludes(text), [
      'napi.h',
      'napi/errors.h',
      'node_api.h',
      '../napi/io_js.h',
    ]);
  });

  it('no engine, scan or per-OS file includes napi.h or a binding header', () => {
    const plain = sources.filter((file) => !inBindings(file));
    // The folders the addon is built from (binding.gyp) are all here, so the check covers them.
    for (const folder of ['engine', 'scan', 'posix', 'linux', 'darwin', 'win']) {
      assert.ok(
        plain.some((file) => file.startsWith(`${folder}/`)),
        `native/src/${folder} has no sources`,
      );
    }
    const offenders = plain.flatMap((file) =>
      napiIncludes(readFileSync(path.join(src, file), 'utf8')).map(
        (include) => `native/src/${file} includes ${include}`,
      ),
    );
    assert.deepEqual(offenders, [], 'move the Node-API code into native/src/napi');
  });

  it('every file in native/src/napi is a binding (plain C++ belongs in engine/)', () => {
    const bindings = sources.filter(inBindings);
    assert.ok(bindings.length > 0, 'native/src/napi has no sources');
    const plain = bindings.filter(
      (file) => napiIncludes(readFileSync(path.join(src, file), 'utf8')).length === 0,
    );
    assert.deepEqual(plain, []);
  });
});

describe('native/index.d.ts', () => {
  it('imports nothing from app/ (the app checks its types against the contract instead)', () => {
    const text = readFileSync(path.join(repoRoot, 'native', 'index.d.ts'), 'utf8');
    const imports = [...text.matchAll(/(?:from\s*|import\s*\(\s*)['"]([^'"]+)['"]/g)].map(
      (match) => match[1],
    );
    assert.deepEqual(
      imports.filter((specifier) => specifier?.includes('app/')),
      [],
    );
  });
});
