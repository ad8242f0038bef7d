/**
 * The localhost dashboard's hardening list (../shared/design/hardening.md, "The localhost dashboard"),
 * item 7 over both adapters: static files (the app, and nothing outside it: traversal in every encoding,
 * dotfiles, symlinks out) and the "not built" placeholder. Undecoded paths go over raw sockets
 * (support/raw-http.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTERS, startTestDashboard } from './support/dashboard.js';
import { ASSET, codeOf, DOTENV, hardeningSuite, INDEX, SECRET, type GqlBody } from './support/dashboard-hardening.js';
import { rawRequest, type RawResponse } from './support/raw-http.js';

describe.each(ADAPTERS)('dashboard hardening over %s', (adapter) => {
  const h = hardeningSuite(adapter);
  const { raw } = h;

  describe('7. static files', () => {
    const ok = (res: RawResponse, what: string): void => {
      expect(res.status, `${what}: ${res.raw.slice(0, 300)}`).toBe(200);
    };

    it('serves the app: index, hashed assets, app routes; 404 for a missing asset', async () => {
      for (const path of ['/graph', '/graph/', '/graph/index.html', '/graph/some/route', '/graph/facts/42?x=1']) {
        const r = await raw({ path });
        ok(r, path);
        expect(r.body).toBe(INDEX);
        expect(r.header('content-type')).toMatch(/^text\/html/);
      }
      const asset = await raw({ path: '/graph/assets/app-abc12345.js' });
      ok(asset, 'asset');
      expect(asset.body).toBe(ASSET);
      expect(asset.header('content-type')).toMatch(/^text\/javascript/);
      expect(asset.header('cache-control')).toContain('immutable');
      for (const path of ['/graph/assets/app-missing1.js', '/graph/missing.css', '/graph/favicon.ico']) {
        const r = await raw({ path });
        expect(r.status, path).toBe(404);
        expect(codeOf(r.json<GqlBody>())).toBe('MEM_ERR_NOT_FOUND');
      }
    });

    it('never returns a file outside the app folder, a dotfile, or a symlink target outside', async () => {
      const b = h.fixture.base;
      const paths = [
        '/graph/../secret.txt',
        '/graph/../../secret.txt',
        '/graph/assets/../../secret.txt',
        '/graph/./../secret.txt',
        '/graph/%2e%2e/secret.txt',
        '/graph/%2e%2e%2fsecret.txt',
        '/graph/.%2e/secret.txt',
        '/graph/%2E%2E%2Fsecret.txt',
        '/graph/assets/..%2f..%2fsecret.txt',
        '/graph/%252e%252e%252fsecret.txt',
        '/graph/%252e%252e/secret.txt',
        '/graph/..%5csecret.txt',
        '/graph/..%5c..%5csecret.txt',
        '/graph/..\\secret.txt',
        '/graph/\\..\\secret.txt',
        '/graph/assets\\..\\..\\secret.txt',
        '/graph/..%00/secret.txt',
        '/graph/../secret.txt%00.html',
        '/graph/../secret.txt%00',
        '/graph/%00../secret.txt',
        '/graph/#/../../secret.txt',
        '/graph/..#/secret.txt',
        '/graph/..%23/../secret.txt',
        '/graph/%c0%ae%c0%ae/secret.txt',
        '/graph/%c0%ae%c0%ae%c0%afsecret.txt',
        '/graph/%e0%80%ae%e0%80%ae/secret.txt',
        '/graph/%c0%2e%c0%2e/secret.txt',
        '/graph/..;/secret.txt',
        `/graph/${b}/secret.txt`,
        `/graph//${b}/secret.txt`,
        `/graph/${encodeURIComponent(join(b, 'secret.txt'))}`,
        '/graph//etc/passwd',
        '/graph/../../../../../../../../../../etc/passwd',
        '/graph/%2fetc%2fpasswd',
        '/graph/file:///etc/passwd',
        '/graph/C:/Windows/win.ini',
        '/graph/c:%5cwindows%5cwin.ini',
        '/graph/../app-evil/secret.txt',
        '/graph/link-out.txt',
        '/graph/link-out',
        '/graph/link-dir/secret.txt',
        '/graph/link-dir/app-evil/secret.txt',
        '/graph/link-dir/app/.env',
        '/graph/.env',
        '/graph/%2eenv',
        '/graph/assets/../.env',
        '/graph/./.env',
        '/graph/.env/',
        '/graph/.%65nv',
        '/graph/index.html/../.env',
        '/../secret.txt',
        '/graph/../../etc/passwd',
        `http://127.0.0.1:${h.port}/graph/../secret.txt`,
        `//graph/../secret.txt`,
      ];
      for (const path of paths) {
        const r = await raw({ path });
        expect(r.raw, path).not.toContain(SECRET);
        expect(r.raw, path).not.toContain(DOTENV);
        expect(r.raw, path).not.toMatch(/root:.*:0:0:/);
        expect(r.raw, path).not.toMatch(/\[fonts\]|for 16-bit app support/i);
        // Whatever answers 200 is the app's own index page, never another file.
        if (r.status === 200) expect(r.body, path).toBe(INDEX);
        else {
          // 404 from our check; 400 or 505 from the engine for request lines it will not parse.
          expect(r.status, `${path}: ${r.raw.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
          expect(r.status, path).not.toBe(500);
        }
      }
    });

    it('shows a "not built" placeholder when the app folder is empty or absent', async () => {
      const empty = mkdtempSync(join(tmpdir(), 'hybrid-mem-noapp-'));
      try {
        for (const appDir of [empty, join(empty, 'absent')]) {
          const nb = await startTestDashboard(adapter, {}, { appDir });
          try {
            for (const path of ['/graph', '/graph/', '/graph/some/route']) {
              const r = await rawRequest(nb.server.port, { path });
              expect(r.status, path).toBe(200);
              expect(r.header('content-type')).toMatch(/^text\/html/);
              expect(r.body).toMatch(/not built/i);
            }
            const traversal = await rawRequest(nb.server.port, { path: '/graph/../../../../etc/passwd' });
            expect(traversal.raw).not.toMatch(/root:.*:0:0:/);
            const config = await rawRequest(nb.server.port, { path: '/api/graph-app/config' });
            expect(config.status).toBe(200);
            expect(config.json<{ tokenRequired: boolean }>().tokenRequired).toBe(false);
          } finally {
            await nb.close();
          }
        }
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
    });
  });
});
