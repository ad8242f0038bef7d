/** A real dashboard server on port 0 over a fresh database, for each adapter. */
import type { AdapterName } from '../../src/http/adapters/types.js';
import { startDashboard, type Dashboard } from '../../src/http/server.js';
import type { MemoryService } from '../../src/memory/service.js';
import { tempHome, type TestHome } from '../helpers.js';
import { MemoryService as Service } from '../../src/memory/service.js';

/** Both adapters; the same tests run over each (conventions.md #3). */
export const ADAPTERS: readonly AdapterName[] = ['uws', 'node'];

export interface TestDashboard {
  readonly home: TestHome;
  readonly svc: MemoryService;
  readonly server: Dashboard;
  readonly url: string;
  /** POST /graphql with JSON; returns status and parsed body. */
  gql<T = unknown>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<{ status: number; body: { data?: T; errors?: { message: string; extensions?: { code?: string } }[] } }>;
  close(): Promise<void>;
}

export async function startTestDashboard(adapter: AdapterName, userConfig: Record<string, unknown> = {}, options: { pollMs?: number; appDir?: string } = {}): Promise<TestDashboard> {
  const dashboard = { ...((userConfig.dashboard as Record<string, unknown> | undefined) ?? {}), ...(options.appDir ? { appDir: options.appDir } : {}) };
  const home = tempHome({ ...userConfig, dashboard, embedding: { enabled: false } });
  const svc = Service.open({ config: home.config, env: home.env, pollMs: options.pollMs ?? 50 });
  const server = await startDashboard({ svc, config: home.config, port: 0, server: adapter, record: false });
  const url = server.url;
  return {
    home,
    svc,
    server,
    url,
    async gql(query, variables, headers = {}) {
      const r = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return { status: r.status, body: (await r.json()) as never };
    },
    async close() {
      await server.close();
      await svc.close();
      home.cleanup();
    },
  };
}
