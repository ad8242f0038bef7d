/** What a transport adapter is given and what it returns; adapters hold no GraphQL or routing logic. */
import type { ServerOptions } from 'graphql-ws';
import type { Handle } from '../router.js';
import type { Refusal, RequestGuardInput } from '../security.js';

export interface AdapterDeps {
  readonly handle: Handle;
  /** graphql-ws options, given a way to read this adapter's upgrade-request headers. */
  readonly wsOptions: <E>(upgradeHeader: (extra: E, name: string) => string | null) => ServerOptions<Record<string, unknown> | undefined, E>;
  /** Host/Origin check for a WebSocket upgrade (the bound port is known by then). */
  readonly checkUpgrade: (h: RequestGuardInput) => Refusal | null;
}

export interface RunningAdapter {
  readonly name: AdapterName;
  readonly port: number;
  /** Stop accepting, end streams and sockets. */
  close(): Promise<void>;
}

export const ADAPTER_NAMES = ['uws', 'node'] as const;
export type AdapterName = (typeof ADAPTER_NAMES)[number];

export type Listen = (deps: AdapterDeps, port: number, host: string) => Promise<RunningAdapter>;

export const refusalBody = (r: Refusal): string => JSON.stringify({ errors: [{ message: r.message, extensions: { code: r.code } }] });
