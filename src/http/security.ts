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

export interface RequestGuardInput {
  readonly host: string | null;
  readonly hostCount: number;
  readonly origin: string | null;
  /** Headers that arrived more than once. */
  readonly repeated?: readonly string[];
}

/** Headers that must come once: a server reading the first and a proxy reading the last would disagree. */
const SINGLE = ['origin', 'content-type', 'authorization', 'sec-fetch-site', 'content-length', 'transfer-encoding'];

/** Lower-case names that occur more than once in a raw header list (name, value, name, value, ...). */
export function repeatedHeaders(names: Iterable<string>): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const n of names) {
    const k = n.toLowerCase();
    if (seen.has(k)) twice.add(k);
    seen.add(k);
  }
  return [...twice];
}

/**
 * Host and Origin checks for requests and WebSocket upgrades on the port `port()` names (known once the
 * server listens); null when the request may proceed. The allowed sets are built once per port.
 */
export function requestGuard(port: () => number): (h: RequestGuardInput) => Refusal | null {
  let forPort = -1;
  let hosts: ReadonlySet<string> = new Set();
  let origins: ReadonlySet<string> = new Set();
  return (h) => {
    const p = port();
    if (p !== forPort) {
      hosts = new Set([`127.0.0.1:${p}`, `localhost:${p}`, `[::1]:${p}`]);
      origins = new Set([...hosts].map((x) => `http://${x}`));
      forPort = p;
    }
    if (h.hostCount !== 1 || !hosts.has(h.host?.toLowerCase() ?? '')) {
      return { code: 'MEM_ERR_HOST_REFUSED', status: 403, message: 'this server answers only to 127.0.0.1, localhost and [::1] on its own port' };
    }
    const twice = h.repeated?.find((n) => SINGLE.includes(n));
    if (twice) return { code: 'MEM_ERR_BAD_REQUEST', status: 400, message: `the ${twice} header may appear once` };
    if (h.origin !== null && !origins.has(h.origin.toLowerCase())) {
      return { code: 'MEM_ERR_ORIGIN_REFUSED', status: 403, message: 'cross-origin requests are refused' };
    }
    return null;
  };
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
