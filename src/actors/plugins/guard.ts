/**
 * What the plugin's process locks down itself, before any plugin code runs, beyond Node's permission
 * model (which the process was started under, see sandbox.ts).
 *
 * The network. Node 20-24's permission model does not restrict the network, so without the `network`
 * capability every way out is replaced with a refusal (ERR_ACCESS_DENIED, permission "Network"): TCP
 * connects (net.Socket.prototype.connect, which net, tls, http, https, http2 and fetch all end in),
 * listening (net.Server.prototype.listen, also tls/http servers), UDP (dgram bind/send/connect), DNS
 * lookups and queries (a DNS name is enough to leak data), and the fetch, WebSocket and EventSource
 * globals. We patch functions rather than refuse loading the modules: `fetch` reaches the network
 * without loading any module a hook could see, and a loader hook (module.register) needs a worker thread,
 * which the sandbox does not grant. The patched properties are made read-only and non-configurable and
 * the originals are kept only in this closure, so plugin code cannot put them back. process.binding is
 * already refused by the permission model, so the native handles stay out of reach. This is a
 * best-effort guard inside the process, not a kernel boundary: docs/plugins.md says so.
 *
 * process.kill: refused for any process but this one (a plugin must not stop the service).
 */
import dgram from 'node:dgram';
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';

/** An error shaped like the permission model's own refusals, so one path reports both. */
export function accessDenied(permission: string, resource: string, why: string): Error {
  return Object.assign(new Error(`Access to this API has been restricted: ${why}`), { code: 'ERR_ACCESS_DENIED', permission, resource });
}

function lock(target: object, key: string, value: unknown): void {
  const was = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { value, writable: false, configurable: false, enumerable: was?.enumerable ?? false });
}

const KEEP_DNS: ReadonlySet<string> = new Set(['constructor', 'getServers', 'setServers', 'cancel', 'setLocalAddress', 'getDefaultResultOrder', 'setDefaultResultOrder']);

/** Replace every function of `target` (but the harmless ones) with one that refuses. */
function refuseFunctions(target: object, what: string, async: boolean): void {
  for (const key of Object.getOwnPropertyNames(target)) {
    // Classes (Resolver) stay: their prototypes are refused separately.
    if (KEEP_DNS.has(key) || /^[A-Z]/.test(key)) continue;
    const d = Object.getOwnPropertyDescriptor(target, key);
    if (!d || typeof d.value !== 'function' || !d.configurable) continue;
    const fail = (): never => {
      throw accessDenied('Network', `${what}.${key}`, `${what}.${key} needs the network capability`);
    };
    lock(target, key, async ? () => Promise.reject(accessDenied('Network', `${what}.${key}`, `${what}.${key} needs the network capability`)) : fail);
  }
}

/** Refuse every network operation in this process (the plugin was not granted `network`). */
export function blockNetwork(): void {
  const refuse = (what: string) => (): never => {
    throw accessDenied('Network', what, `${what} needs the network capability`);
  };
  lock(net.Socket.prototype, 'connect', refuse('net.Socket.connect (a TCP or IPC connection)'));
  lock(net.Server.prototype, 'listen', refuse('net.Server.listen (a listening socket)'));
  lock(net, 'connect', refuse('net.connect'));
  lock(net, 'createConnection', refuse('net.createConnection'));
  lock(tls, 'connect', refuse('tls.connect'));
  for (const m of ['bind', 'send', 'connect']) lock(dgram.Socket.prototype, m, refuse(`dgram.Socket.${m} (UDP)`));
  refuseFunctions(dns, 'dns', false);
  refuseFunctions(dns.Resolver.prototype, 'dns.Resolver', false);
  refuseFunctions(dns.promises, 'dns.promises', true);
  refuseFunctions(dns.promises.Resolver.prototype, 'dns.promises.Resolver', true);
  const g = globalThis as Record<string, unknown>;
  const asyncRefusal = (what: string) => () => Promise.reject(accessDenied('Network', what, `${what} needs the network capability`));
  if ('fetch' in g) lock(g, 'fetch', asyncRefusal('fetch'));
  for (const name of ['WebSocket', 'EventSource']) {
    if (!(name in g)) continue;
    lock(g, name, function refused(): never {
      throw accessDenied('Network', name, `${name} needs the network capability`);
    });
  }
  // ESM named imports (`import { connect } from 'node:net'`) read these live bindings from here on.
  syncBuiltinESMExports();
}

/** process.kill works on this process only. */
export function guardKill(): void {
  const kill = process.kill.bind(process);
  lock(process, 'kill', (pid: number, signal?: string | number) => {
    if (pid !== process.pid) throw accessDenied('ChildProcess', `pid ${String(pid)}`, 'a plugin may not signal other processes');
    return kill(pid, signal);
  });
}
