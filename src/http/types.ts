/**
 * The transport-neutral request and response every adapter converts to and from. Adapters copy what
 * they need synchronously (uWebSockets.js requests die after the first await), and read bodies lazily
 * with a size cap.
 */
export interface HttpRequest {
  /** Upper-case method. */
  readonly method: string;
  /** Raw, undecoded path (no query string). */
  readonly path: string;
  /** Raw query string without '?', or ''. */
  readonly query: string;
  /** Header value by lower-case name (first value when repeated), or null. */
  readonly header: (name: string) => string | null;
  /** How many Host headers arrived (more than one is refused). */
  readonly hostCount: number;
  /** Lower-case names of the headers that arrived more than once (a repeated Origin or Content-Type is refused). */
  readonly repeated?: readonly string[];
  /** The body, at most `limit` bytes; rejects with MEM_ERR_BODY_TOO_LARGE past it. */
  readonly body: (limit: number) => Promise<Buffer>;
}

export interface HttpHeaders {
  readonly [name: string]: string;
}

export type HttpResponse =
  | { readonly status: number; readonly headers: HttpHeaders; readonly body: string | Buffer }
  | {
      readonly status: number;
      readonly headers: HttpHeaders;
      /** A long-lived stream (SSE). The adapter calls `return()` on it when the client goes away. */
      readonly stream: AsyncGenerator<string, void, undefined>;
    };

export const isStream = (r: HttpResponse): r is Extract<HttpResponse, { stream: unknown }> => 'stream' in r;

/** What every response carries (no CORS headers, ever). */
export const BASE_HEADERS: HttpHeaders = Object.freeze({
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
});
