/**
 * No import circles in app/ or renderer/ (type-only imports count: a circle of types still means a
 * type lives in the wrong file). Imports are read and resolved by TypeScript itself.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { repoRoot } from '../helpers/cli.js';

const options: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
};

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => path.join(repoRoot, folder, file));
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((i) => ts.resolveModuleName(i.fileName, file, options, ts.sys).resolvedModule)
      .map((m) => m?.resolvedFileName)
      .filter((f): f is string => f !== undefined && known.has(f));
    graph.set(file, targets);
  }
  return graph;
}

/** Each circle once, as the list of files around it (depth-first search, grey/black marks). */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

test('app/ and renderer/ have no import circles', () => {
  const graph = importGraph([...sourceFiles('app'), ...sourceFiles('renderer/src')]);
  assert.ok(graph.size > 150, `read only ${graph.size} files`);
  const named = circles(graph).map((c) => c.map((f) => path.relative(repoRoot, f)).join(' → '));
  assert.deepEqual(named, []);
});

test('the circle finder finds a circle', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['a']],
  ]);
  assert.deepEqual(circles(graph), [['a', 'b', 'c']]);
});
