import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { contentTypeOf, resolveStatic } from '../../app/core/static-files.js';

let base: string;
let root: string;

before(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'plumb-static-'));
  root = path.join(base, 'renderer');
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), '<!doctype html>');
  writeFileSync(path.join(root, 'assets', 'app.js'), '1');
  writeFileSync(path.join(base, 'secret.txt'), 'secret');
  symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'escape.txt'));
});
after(() => rmSync(base, { recursive: true, force: true }));

test('serves files inside the root, and index.html for /', async () => {
  assert.equal(await resolveStatic(root, '/'), path.join(root, 'index.html'));
  assert.equal(await resolveStatic(root, '/assets/app.js'), path.join(root, 'assets', 'app.js'));
  assert.equal(contentTypeOf('x.js'), 'text/javascript; charset=utf-8');
});

test('refuses every way out of the root', async () => {
  for (const attempt of [
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/..%5csecret.txt',
    '/escape.txt',
    '/assets',
    '/nope.js',
    '/%00',
    '/%E0%A4%A',
  ]) {
    assert.equal(await resolveStatic(root, attempt), null, attempt);
  }
});
