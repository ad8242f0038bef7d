/** Worker side of a long-lived actor: expose handlers over comlink, each answering with an envelope. */
import { expose } from 'comlink';
import { parentPort } from 'node:worker_threads';
import { nodeEndpoint } from './comlink-node.js';
import { envelope, type Handlers } from './envelope.js';

export function exposeActor(handlers: Handlers): void {
  if (!parentPort) throw new Error('exposeActor must run inside a worker thread');
  const api: Record<string, (...args: readonly unknown[]) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(handlers)) {
    api[name] = (...args) => envelope(() => (fn as (...a: readonly unknown[]) => unknown)(...args));
  }
  expose(api, nodeEndpoint(parentPort));
}
