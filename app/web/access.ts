/**
 * Who may talk to the local server: only pages it served itself, on 127.0.0.1, holding the token.
 * Pure functions so the refusal rules are unit-tested without sockets.
 */
import { timingSafeEqual } from 'node:crypto';

export const tokenCookie = 'plumb_token';

export interface AccessRequest {
  host: string | undefined;
  origin: string | undefined;
  url: string;
  cookie: string | undefined;
}

export type AccessDecision =
  { ok: true; tokenFromQuery: boolean } | { ok: false; status: 400 | 403; reason: string };

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
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
 * in the same browser); the token must come in the query or in the cookie we set.
 */
export function checkAccess(request: AccessRequest, port: number, token: string): AccessDecision {
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
  const queryToken = url.searchParams.get('token');
  if (queryToken !== null && sameToken(queryToken, token))
    return { ok: true, tokenFromQuery: true };
  const cookieToken = cookieValue(request.cookie, tokenCookie);
  if (cookieToken !== undefined && sameToken(cookieToken, token))
    return { ok: true, tokenFromQuery: false };
  return { ok: false, status: 403, reason: 'missing or wrong token' };
}
