import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAccess } from '../../app/web/access.js';

const port = 43111;
const token = 'secret-token-0123456789';
const ok = {
  host: `127.0.0.1:${port}`,
  origin: undefined,
  url: `/?token=${token}`,
  cookie: undefined,
};

test('the right host and token are let in, and the token may come from the cookie', () => {
  assert.deepEqual(checkAccess(ok, port, token), { ok: true, tokenFromQuery: true });
  assert.deepEqual(
    checkAccess({ ...ok, url: '/assets/app.js', cookie: `a=b; plumb_token=${token}` }, port, token),
    {
      ok: true,
      tokenFromQuery: false,
    },
  );
  assert.equal(
    checkAccess(
      { ...ok, host: `localhost:${port}`, origin: `http://localhost:${port}` },
      port,
      token,
    ).ok,
    true,
  );
});

test('no token, or a wrong one, is refused', () => {
  assert.equal(checkAccess({ ...ok, url: '/' }, port, token).ok, false);
  assert.equal(checkAccess({ ...ok, url: '/?token=wrong' }, port, token).ok, false);
  assert.equal(checkAccess({ ...ok, url: `/?token=${token}x` }, port, token).ok, false);
  assert.equal(checkAccess({ ...ok, url: '/', cookie: 'plumb_token=nope' }, port, token).ok, false);
});

test('a foreign Host (DNS rebinding) is refused even with the token', () => {
  for (const host of [`evil.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1', undefined]) {
    const decision = checkAccess({ ...ok, host }, port, token);
    assert.equal(decision.ok, false, `host ${host}`);
  }
});

test('a foreign or malformed Origin is refused even with the token', () => {
  for (const origin of [
    'http://evil.example',
    `https://127.0.0.1:${port}`,
    `http://127.0.0.1:${port + 1}`,
    'null',
    'garbage',
  ]) {
    const decision = checkAccess({ ...ok, origin }, port, token);
    assert.deepEqual(decision.ok, false, `origin ${origin}`);
  }
});
