import assert from 'node:assert/strict';
import { test } from 'node:test';
import { operations } from '../../app/contract/index.js';
import { createDispatcher, type CallContext } from '../../app/core/dispatch.js';
import { createHandlers } from '../../app/core/services.js';
import { testContext } from '../helpers/context.js';

const context: CallContext = { emit: () => undefined };
const dispatcher = createDispatcher(createHandlers(testContext(), 'web'));

test('every contract operation has a handler', () => {
  const handlers = createHandlers(testContext(), 'web');
  assert.deepEqual(Object.keys(handlers).sort(), Object.keys(operations).sort());
});

test('an unknown operation is refused with EUNKNOWNOP', async () => {
  await assert.rejects(dispatcher.call('fs.deleteEverything', {}, context), { code: 'EUNKNOWNOP' });
  await assert.rejects(dispatcher.call('__proto__', {}, context), { code: 'EUNKNOWNOP' });
  await assert.rejects(dispatcher.call(42, {}, context), { code: 'EUNKNOWNOP' });
});

test('bad input is refused with EINVAL naming the field', async () => {
  await assert.rejects(
    dispatcher.call('volume.info', { path: 7 }, context),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, 'EINVAL');
      assert.match(error.message, /^Bad input for volume\.info: path: /);
      return true;
    },
  );
  await assert.rejects(dispatcher.call('volume.info', { path: '   ' }, context), {
    code: 'EINVAL',
  });
  await assert.rejects(dispatcher.call('app.about', { extra: true }, context), { code: 'EINVAL' });
});

test('a valid call runs its handler and returns what the contract says', async () => {
  await dispatcher.call('session.choosePath', { path: process.cwd() }, context);
  const info = await dispatcher.call('volume.info', { path: process.cwd() }, context);
  const parsed = operations['volume.info'].output.parse(info);
  assert.ok(parsed.totalBytes > 0);
  assert.ok(parsed.freeBytes <= parsed.totalBytes);
  const about = operations['app.about'].output.parse(
    await dispatcher.call('app.about', {}, context),
  );
  assert.equal(about.transport, 'web');
  assert.equal(about.nativeAvailable, true);
});

test('handler errors keep their code: a missing folder is ENOENT with a sentence to act on', async () => {
  await dispatcher.call('session.choosePath', { path: '/no/such/folder/here' }, context);
  await assert.rejects(
    dispatcher.call('volume.info', { path: '/no/such/folder/here' }, context),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, 'ENOENT');
      assert.match(error.message, /No such folder: \/no\/such\/folder\/here\. Check the path/);
      return true;
    },
  );
});

test('the folder picker says to type a path outside the desktop app', async () => {
  await assert.rejects(dispatcher.call('dialog.chooseFolder', {}, context), { code: 'ENOTSUP' });
});
