/**
 * Sign-in for web mode. No long-lived secret ever appears in a URL, a command line or a history:
 * links carry a one-time code, which the server trades on first use for a random session id kept
 * only in an HttpOnly, SameSite=Strict cookie. A used or expired code is worth nothing.
 */
import { createHash, randomBytes } from 'node:crypto';

/** Codes and ids are looked up by their SHA-256, so lookup time says nothing about a guess. */
function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function newSecret(): string {
  return randomBytes(24).toString('base64url');
}

interface PendingCode {
  expiresAtMs: number;
  onUsed: (() => void) | undefined;
}

export interface MintOptions {
  /** The code is refused after this long (default: until used or the server stops). */
  expiresInMs?: number;
  /** Called once, when the code is redeemed. */
  onUsed?: () => void;
}

export class SignInBook<Session> {
  private readonly codes = new Map<string, PendingCode>();
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly newSession: () => Session,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** A fresh one-time code. */
  mint(options: MintOptions = {}): string {
    for (const [key, pending] of this.codes) {
      if (this.nowMs() > pending.expiresAtMs) this.codes.delete(key);
    }
    const code = newSecret();
    this.codes.set(digest(code), {
      expiresAtMs:
        options.expiresInMs === undefined ? Infinity : this.nowMs() + options.expiresInMs,
      onUsed: options.onUsed,
    });
    return code;
  }

  /** Trades a code for a new session id; undefined when the code is unknown, used or expired. */
  redeem(code: string): string | undefined {
    const key = digest(code);
    const pending = this.codes.get(key);
    if (!pending) return undefined;
    this.codes.delete(key);
    if (this.nowMs() > pending.expiresAtMs) return undefined;
    const id = newSecret();
    this.sessions.set(digest(id), this.newSession());
    pending.onUsed?.();
    return id;
  }

  /** The session with that id, if it was handed out by `redeem`. */
  session(id: string | undefined): Session | undefined {
    return id === undefined ? undefined : this.sessions.get(digest(id));
  }
}
