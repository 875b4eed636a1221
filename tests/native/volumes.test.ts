import assert from 'node:assert/strict';
import { test } from 'node:test';
import { operations } from '../../app/contract/index.js';
import { createDispatcher } from '../../app/core/dispatch.js';
import { loadNative } from '../../app/core/native/load.js';
import { createHandlers } from '../../app/core/services.js';
import { testContext } from '../helpers/context.js';

function nativeMissing(): string | undefined {
  try {
    loadNative();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

test('volumes.list names the volume that holds the working folder, with its facts', async (t) => {
  const reason = nativeMissing();
  if (reason) return t.skip(reason);
  const dispatcher = createDispatcher(createHandlers(testContext(), 'web'));
  const value = await dispatcher.call('volumes.list', {}, { emit: () => undefined });
  const { volumes } = operations['volumes.list'].output.parse(value);
  assert.ok(volumes.length >= 1);
  const here = await loadNative().volumeInfo(process.cwd());
  const holder = volumes.find((v) => v.mountPoint === here.mountPoint);
  assert.ok(holder, `the list includes ${here.mountPoint}`);
  assert.ok(holder.totalBytes > 0 && holder.name.length > 0);
  assert.equal(new Set(volumes.map((v) => v.mountPoint)).size, volumes.length);
});
