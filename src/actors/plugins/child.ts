/**
 * The plugin's process (one per plugin), started by client.ts under Node's permission model with the
 * IPC channel as its only way to the service. Before any plugin code runs it checks that the permission
 * model is on (else it refuses to load anything), locks the network unless the plugin was granted it, and
 * keeps `process.kill` to itself. Then it answers calls one at a time (the parent queues them) and serves
 * the plugin's context.service, emit and logger by sending requests to the parent's facade.
 *
 * A refusal (ERR_ACCESS_DENIED from Node or guard.ts, ERR_DLOPEN_DISABLED from --no-addons) thrown by a
 * plugin, even wrapped as another error's cause (fetch does that), answers MEM_ERR_PLUGIN_CAPABILITY
 * naming the permission and the resource, so the host reports exactly what the sandbox stopped.
 */
import { MemoryError, toWire, type WireError } from '../../core/errors.js';
import { type Envelope } from '../runtime/envelope.js';
import { CHILD_METHODS, type ChildMethod, type FacadeMethod, type FromChild, type PluginFacadeApi, type PluginSpec, type ToChild } from './contract.js';
import { blockNetwork, guardKill } from './guard.js';
import { pluginRunner } from './runner.js';

interface Denied {
  readonly code: string;
  readonly message: string;
  readonly permission?: unknown;
  readonly resource?: unknown;
}

/** The sandbox's refusals: the permission model's (and guard.ts's), and `--no-addons`'. */
const REFUSALS: Readonly<Record<string, string>> = { ERR_ACCESS_DENIED: 'unknown', ERR_DLOPEN_DISABLED: 'Addon' };

function findDenied(err: unknown): Denied | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && Object.hasOwn(REFUSALS, code)) return e as Denied;
  }
  return null;
}

/** A thrown value as it crosses to the parent (a sandbox refusal becomes MEM_ERR_PLUGIN_CAPABILITY). */
export function wireOf(err: unknown): WireError {
  const denied = err instanceof MemoryError ? null : findDenied(err);
  if (!denied) return toWire(err);
  const permission = typeof denied.permission === 'string' ? denied.permission : (REFUSALS[denied.code] as string);
  const resource = typeof denied.resource === 'string' ? denied.resource : '';
  const outer = err !== denied && err instanceof Error ? `${err.message}: ` : '';
  return {
    code: 'MEM_ERR_PLUGIN_CAPABILITY',
    message: `the sandbox refused ${permission}${resource ? ` (${resource})` : ''}: ${outer}${denied.message}`,
    details: { sandbox: true, permission, resource },
  };
}

function send(message: FromChild): void {
  process.send?.(message);
}

async function answer<T>(fn: () => Promise<T>): Promise<Envelope<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    return { ok: false, error: wireOf(err) };
  }
}

function start(): void {
  if (!process.send) throw new Error('the plugin host must be started with an IPC channel');
  // An error no hook awaited (a callback's throw, an unhandled rejection): say what it was, then die
  // as a worker thread would; the parent reports it and starts a fresh process for the next call.
  const fatal = (err: unknown): void => {
    const w = wireOf(err);
    send({ kind: 'fatal', error: { code: w.code, message: w.message } });
    process.exitCode = 1;
    setImmediate(() => process.exit(1));
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  // Fail closed: without the permission model this process would give plugin code the whole machine.
  const permission = (process as { permission?: { has(scope: string, reference?: string): boolean } }).permission;
  if (!permission || permission.has('child')) {
    send({ kind: 'fatal', error: { code: 'MEM_ERR_INTERNAL', message: 'the plugin process is not running under the Node permission model; no plugin code was loaded' } });
    process.exit(70);
  }
  guardKill();
  const network = process.argv.includes('--hybrid-mem-network');
  if (!network) blockNetwork();

  let nextId = 1;
  const waiting = new Map<number, (e: Envelope<unknown>) => void>();
  const request = (method: FacadeMethod, args: readonly unknown[]): Promise<Envelope<unknown>> =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      send({ kind: 'request', id, method, args });
    });
  const facade: PluginFacadeApi = {
    declare: async (caps) => void (await request('declare', [caps])),
    call: (method, args) => request('call', [method, args]),
    emit: (event, data) => request('emit', [event, data]) as Promise<Envelope<void>>,
    log: async (level, message) => void (await request('log', [level, message])),
  };
  const runner = pluginRunner(facade);
  const run = (method: ChildMethod, args: readonly unknown[]): Promise<unknown> => {
    switch (method) {
      case 'init':
        return runner.init(args[0] as PluginSpec);
      case 'hook':
        return runner.hook(args[0] as Parameters<typeof runner.hook>[0], args[1] as readonly unknown[]);
      case 'endpoint':
        return runner.endpoint(args[0] as string, args[1]);
      case 'command':
        return runner.command(args[0] as string, args[1] as readonly string[]);
    }
  };

  process.on('message', (raw: unknown) => {
    const m = raw as ToChild;
    if (m?.kind === 'answer') {
      const resolve = waiting.get(m.id);
      waiting.delete(m.id);
      resolve?.(m.envelope);
      return;
    }
    if (m?.kind !== 'call' || !(CHILD_METHODS as readonly string[]).includes(m.method)) return;
    void answer(() => run(m.method, m.args)).then((envelope) => {
      try {
        send({ kind: 'reply', id: m.id, envelope });
      } catch (err) {
        send({ kind: 'reply', id: m.id, envelope: { ok: false, error: wireOf(err) } });
      }
    });
  });
  // The service went away (or closed the channel): nothing is left to serve.
  process.on('disconnect', () => process.exit(0));
}

start();
