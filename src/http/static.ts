/**
 * GET /graph and sub-paths: the built app (app/dist). A path is decoded once and refused (404) when it
 * holds a backslash, a NUL, an encoded slash or dot-dot, a `..` or dot-file segment, or when the real
 * file (symlinks resolved) lies outside the app folder. Unknown clean paths fall back to index.html (the
 * app routes itself). Without a build, a placeholder page says so.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { BASE_HEADERS, type HttpResponse } from './types.js';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>hybrid-mem: graph app not built</title></head>
<body><h1>The graph app is not built</h1><p>This hybrid-mem install has no built memory-graph app. Run <code>npm run build</code>
in the hybrid-mem folder, then reload. The GraphQL API is available at <a href="/graphql">/graphql</a>.</p></body></html>`;

const notFound = (): HttpResponse => ({
  status: 404,
  headers: { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ errors: [{ message: 'not found', extensions: { code: 'MEM_ERR_NOT_FOUND' } }] }),
});

/** The part of the path below /graph, decoded and checked; null when it must be refused. */
export function safeRelative(rawPath: string): string | null {
  const rest = rawPath.slice('/graph'.length).replace(/^\/+/, '');
  if (/%(2f|5c|00)/i.test(rest)) return null; // encoded separators and NUL
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return null; // malformed or overlong UTF-8
  }
  if (decoded.includes('\\') || decoded.includes('\0') || decoded.includes('%') || /^[a-z]:/i.test(decoded)) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s.startsWith('.'))) return null;
  return segments.join('/');
}

export class StaticApp {
  private readonly root: Promise<string | null>;

  constructor(appDir: string) {
    this.root = realpath(appDir).catch(() => null);
  }

  async serve(rawPath: string, method: string): Promise<HttpResponse> {
    const root = await this.root;
    const rel = safeRelative(rawPath);
    if (rel === null) return notFound();
    const index = root === null ? null : await this.file(root, 'index.html');
    if (root === null || index === null) {
      return { status: 200, headers: { ...BASE_HEADERS, 'content-type': TYPES['.html'] ?? '', 'cache-control': 'no-store' }, body: method === 'HEAD' ? '' : PLACEHOLDER };
    }
    const file = rel === '' ? index : await this.file(root, rel);
    // Asset-looking paths that do not exist are 404s; other unknown paths are app routes.
    if (file === null && extname(rel) !== '') return notFound();
    const chosen = file ?? index;
    const type = TYPES[extname(chosen.path)] ?? 'application/octet-stream';
    const hashed = /[-.][A-Za-z0-9_-]{8,}\.(js|css|woff2|wasm|png|svg)$/.test(chosen.path);
    return {
      status: 200,
      headers: { ...BASE_HEADERS, 'content-type': type, 'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache' },
      body: method === 'HEAD' ? '' : chosen.data,
    };
  }

  /** A regular file whose real path is inside root, or null. */
  private async file(root: string, rel: string): Promise<{ path: string; data: Buffer } | null> {
    try {
      const real = await realpath(join(root, rel));
      if (!real.startsWith(root + sep)) return null;
      if (!(await stat(real)).isFile()) return null;
      return { path: real, data: await readFile(real) };
    } catch {
      return null;
    }
  }
}
