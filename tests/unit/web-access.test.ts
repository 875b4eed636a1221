import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAccess } from '../../app/web/access.js';
import { SignInBook } from '../../app/web/sign-in.js';

const port = 43111;
const ok = {
  host: `127.0.0.1:${port}`,
  origin: undefined,
  url: '/?code=abc',
  cookie: undefined,
};

test('the right host is let through with what it presents: the code and the session cookie', () => {
  assert.deepEqual(checkAccess(ok, port), {
    ok: true,
    pathname: '/',
    code: 'abc',
    session: undefined,
  });
  assert.deepEqual(
    checkAccess({ ...ok, url: '/assets/app.js', cookie: 'a=b; plumb_session=s1' }, port),
    { ok: true, pathname: '/assets/app.js', code: undefined, session: 's1' },
  );
  assert.equal(
    checkAccess({ ...ok, host: `localhost:${port}`, origin: `http://localhost:${port}` }, port).ok,
    true,
  );
});

test('a URL that does not parse is refused with 400, never thrown', () => {
  for (const url of ['http://[::1', '//[', 'http://a b/', 'http://:99999/']) {
    const decision = checkAccess({ ...ok, url }, port);
    assert.equal(decision.ok ? 'ok' : decision.status, 400, JSON.stringify(url));
  }
});

test('a foreign Host (DNS rebinding) is refused', () => {
  for (const host of [`evil.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1', undefined]) {
    const decision = checkAccess({ ...ok, host }, port);
    assert.equal(decision.ok, false, `host ${host}`);
  }
});

test('a foreign or malformed Origin is refused', () => {
  for (const origin of [
    'http://evil.example',
    `https://127.0.0.1:${port}`,
    `http://127.0.0.1:${port + 1}`,
    'null',
    'garbage',
  ]) {
    const decision = checkAccess({ ...ok, origin }, port);
    assert.deepEqual(decision.ok, false, `origin ${origin}`);
  }
});

test('a sign-in code works once, and only before it expires', () => {
  let now = 1_000;
  const book = new SignInBook(
    () => ({ made: now }),
    () => now,
  );
  const code = book.mint();
  const session = book.redeem(code);
  assert.ok(session && session.length >= 32);
  assert.deepEqual(book.session(session), { made: 1_000 });
  assert.equal(book.redeem(code), undefined, 'a second use is refused');
  assert.equal(book.redeem('not-a-code'), undefined);
  assert.equal(book.session('not-a-session'), undefined);
  assert.equal(book.session(undefined), undefined);

  const shortLived = book.mint({ expiresInMs: 60_000 });
  now += 60_001;
  assert.equal(book.redeem(shortLived), undefined, 'an expired code is refused');
  const fresh = book.mint({ expiresInMs: 60_000 });
  now += 59_000;
  assert.ok(book.redeem(fresh));
});

test('each redeemed code makes its own session, and says so once', () => {
  const book = new SignInBook(() => ({}));
  let used = 0;
  const a = book.redeem(book.mint({ onUsed: () => used++ }))!;
  const b = book.redeem(book.mint())!;
  assert.notEqual(a, b);
  assert.notEqual(book.session(a), book.session(b));
  assert.equal(used, 1);
});
