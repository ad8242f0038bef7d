/**
 * The dashboard server: binds 127.0.0.1 only, on dashboard.port or, when that port is taken, an ephemeral
 * one (the URL it reports is authoritative). Picks the transport adapter (uWebSockets.js where its binary
 * loads, node:http otherwise, or as configured), and records its URL in <dataDir>/dashboard.json so
 * `hybrid-mem dashboard` can print it.
 */
import type * as UwsModule from 'uWebSockets.js';
import { PACKAGE_ROOT, packageVersion } from '../config/package.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { MemoryService } from '../memory/service.js';
import { listenNode } from './adapters/node.js';
import type { AdapterName, Listen, RunningAdapter } from './adapters/types.js';
import { createSchema } from './graphql/schema.js';
import { OperationPreparer } from './graphql/operation.js';
import { ReadClient } from '../actors/reads/client.js';
import { AnswerCache } from './answer-cache.js';
import { ReadOffload } from './read-offload.js';
import { createRouter } from './router.js';
import { requestGuard, TokenCheck } from './security.js';
import { wsServerOptions } from './ws.js';
import { removeDashboardRecord, writeDashboardRecord } from './record.js';

export const DASHBOARD_HOST = '127.0.0.1';

export interface DashboardOptions {
  readonly svc: MemoryService;
  readonly config: ResolvedConfig;
  /** Override dashboard.port (tests pass 0). */
  readonly port?: number;
  /** Override dashboard.server. */
  readonly server?: 'auto' | AdapterName;
  /** Write <dataDir>/dashboard.json for `hybrid-mem dashboard` (default true). */
  readonly record?: boolean;
  /** Run heavy queries on a read worker thread (default true; false: everything on this thread). */
  readonly readWorker?: boolean;
  /** Keep answers to heavy queries while memory has not changed (default true). */
  readonly answerCache?: boolean;
  readonly log?: (line: string) => void;
}

export interface Dashboard {
  readonly url: string;
  readonly port: number;
  readonly adapter: AdapterName;
  close(): Promise<void>;
}


/** The uWebSockets.js adapter, or the reason it cannot load here. */
async function loadUws(): Promise<Listen | string> {
  try {
    // A CommonJS addon: the namespace's default export is the module (stack.md: default import only).
    const mod = (await import('uWebSockets.js')) as unknown as { default: typeof UwsModule };
    const { makeUwsListen } = await import('./adapters/uws.js');
    return makeUwsListen(mod.default);
  } catch (err) {
    return err instanceof Error ? err.message.split('\n')[0] ?? err.message : String(err);
  }
}

export async function startDashboard(o: DashboardOptions): Promise<Dashboard> {
  const want = o.server ?? o.config.dashboard.server;
  let listen: Listen = listenNode;
  let adapterNote = '';
  if (want !== 'node') {
    const uws = await loadUws();
    if (typeof uws !== 'string') listen = uws;
    else if (want === 'uws') throw new Error(`dashboard.server is "uws" but uWebSockets.js cannot load on Node ${process.versions.node}: ${uws}`);
    else adapterNote = ` (uWebSockets.js unavailable on Node ${process.versions.node}; node:http serves)`;
  }
  const preparer = new OperationPreparer(createSchema());
  const token = new TokenCheck(o.config.dashboard.token);
  let port = 0;
  const reads = o.readWorker === false ? null : new ReadClient();
  const handle = createRouter({
    offload: reads ? new ReadOffload(reads, o.svc) : null,
    answers: o.answerCache === false ? null : new AnswerCache(o.svc),
    svc: o.svc,
    preparer,
    token,
    appDir: o.config.dashboard.appDir ?? `${PACKAGE_ROOT}app/dist`,
    version: packageVersion(),
    port: () => port,
  });
  const running: RunningAdapter = await listen(
    {
      handle,
      wsOptions: (upgradeHeader) => wsServerOptions({ svc: o.svc, preparer, token, upgradeHeader }),
      checkUpgrade: requestGuard(() => port),
    },
    o.port ?? o.config.dashboard.port,
    DASHBOARD_HOST,
  );
  port = running.port;
  const url = `http://${DASHBOARD_HOST}:${port}`;
  const record = o.record ?? true;
  if (record) writeDashboardRecord(o.config.dataDir, { url, pid: process.pid, adapter: running.name, startedAt: Date.now() });
  o.log?.(`dashboard on ${url}/graph (${running.name})${adapterNote}`);
  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    adapter: running.name,
    close: () =>
      (closing ??= running.close().finally(async () => {
        if (record) removeDashboardRecord(o.config.dataDir, process.pid);
        await reads?.close();
      })),
  };
}
