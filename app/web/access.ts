/**
 * Who may talk to the local server: only pages it served itself, on 127.0.0.1, signed in with a
 * one-time code and then holding the session cookie. Pure functions so the refusal rules are
 * unit-tested without sockets; the codes and sessions themselves live in sign-in.ts.
 */

export const sessionCookie = 'plumb_session';
/** The query parameter of a sign-in link: `/?code=…`. */
export const signInParam = 'code';

export interface AccessRequest {
  host: string | undefined;
  origin: string | undefined;
  url: string;
  cookie: string | undefined;
}

/**
 * Host and Origin passed; what the request presents to be let in: a sign-in code from the URL
 * (to be redeemed) and/or the session cookie (to be looked up). Either may be absent.
 */
export type AccessDecision =
  | { ok: true; pathname: string; code: string | undefined; session: string | undefined }
  | { ok: false; status: 400 | 403; reason: string };

function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/**
 * Host must be ours (defeats DNS rebinding); Origin, when sent, must be ours (defeats other sites
 * in the same browser); the URL must parse. Never throws, whatever the request holds.
 */
export function checkAccess(request: AccessRequest, port: number): AccessDecision {
  const hosts = allowedHosts(port);
  if (!request.host || !hosts.has(request.host.toLowerCase())) {
    return { ok: false, status: 403, reason: 'foreign Host header' };
  }
  if (request.origin !== undefined) {
    let originHost: string;
    try {
      const origin = new URL(request.origin);
      if (origin.protocol !== 'http:') return { ok: false, status: 403, reason: 'foreign Origin' };
      originHost = origin.host.toLowerCase();
    } catch {
      return { ok: false, status: 403, reason: 'malformed Origin' };
    }
    if (!hosts.has(originHost)) return { ok: false, status: 403, reason: 'foreign Origin' };
  }
  let url: URL;
  try {
    url = new URL(request.url, 'http://127.0.0.1');
  } catch {
    return { ok: false, status: 400, reason: 'malformed URL' };
  }
  return {
    ok: true,
    pathname: url.pathname,
    code: url.searchParams.get(signInParam) ?? undefined,
    session: cookieValue(request.cookie, sessionCookie),
  };
}
