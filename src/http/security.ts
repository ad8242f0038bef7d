/**
 * The localhost guards (../shared/design/hardening.md, dashboard list): a Host allow-list against DNS
 * rebinding, an exact Origin check against cross-site requests (HTTP and WebSocket alike), and a
 * constant-time token compare over fixed-length digests, so neither the token's content nor its length leaks.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ErrorCode } from '../core/errors.js';
import type { TokenState } from './graphql/operation.js';

export interface Refusal {
  readonly code: ErrorCode;
  readonly status: number;
  readonly message: string;
}

/** The three names a loopback client may use, with the exact port. */
export function allowedHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export function allowedOrigins(port: number): ReadonlySet<string> {
  return new Set([...allowedHosts(port)].map((h) => `http://${h}`));
}

/** Host and Origin checks for one request (or WebSocket upgrade); null when it may proceed. */
export function checkRequest(h: { host: string | null; hostCount: number; origin: string | null }, port: number): Refusal | null {
  const host = h.host?.toLowerCase() ?? '';
  if (h.hostCount !== 1 || !allowedHosts(port).has(host)) {
    return { code: 'MEM_ERR_HOST_REFUSED', status: 403, message: 'this server answers only to 127.0.0.1, localhost and [::1] on its own port' };
  }
  if (h.origin !== null && !allowedOrigins(port).has(h.origin.toLowerCase())) {
    return { code: 'MEM_ERR_ORIGIN_REFUSED', status: 403, message: 'cross-origin requests are refused' };
  }
  return null;
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Compares presented tokens with the configured one in constant time; 'ok' when none is configured. */
export class TokenCheck {
  private readonly expected: Buffer | null;

  constructor(token: string | null) {
    this.expected = token === null ? null : digest(token);
  }

  get required(): boolean {
    return this.expected !== null;
  }

  /** From an Authorization header value ("Bearer <token>"). */
  fromHeader(authorization: string | null): TokenState {
    if (this.expected === null) return 'ok';
    if (authorization === null || authorization.trim() === '') return 'missing';
    const m = /^Bearer\s+(\S.*)$/i.exec(authorization.trim());
    return this.check(m?.[1] ?? '');
  }

  /** From a presented token (WebSocket connection params). */
  check(presented: string | null | undefined): TokenState {
    if (this.expected === null) return 'ok';
    if (presented === null || presented === undefined || presented === '') return 'missing';
    return timingSafeEqual(digest(presented), this.expected) ? 'ok' : 'invalid';
  }
}
