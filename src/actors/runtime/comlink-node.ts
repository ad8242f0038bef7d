/**
 * A comlink Endpoint over a Node MessagePort or Worker (comlink speaks DOM EventTarget; Node ports are
 * EventEmitters). Our own 20 lines instead of comlink's node adapter, whose typings need the DOM lib.
 */
import type { Endpoint } from 'comlink';
import type { MessagePort, Worker } from 'node:worker_threads';

type Listener = (ev: { data: unknown }) => void;
type ListenerLike = Listener | { handleEvent: Listener };

export function nodeEndpoint(port: MessagePort | Worker): Endpoint {
  const wrapped = new WeakMap<ListenerLike, (data: unknown) => void>();
  const ep = {
    postMessage: (message: unknown, transfer?: readonly unknown[]) => port.postMessage(message, transfer as never),
    addEventListener: (_type: string, listener: ListenerLike) => {
      const fn = (data: unknown) => (typeof listener === 'function' ? listener({ data }) : listener.handleEvent({ data }));
      wrapped.set(listener, fn);
      port.on('message', fn);
    },
    removeEventListener: (_type: string, listener: ListenerLike) => {
      const fn = wrapped.get(listener);
      if (fn) port.off('message', fn);
      wrapped.delete(listener);
    },
    start: () => (port as MessagePort).start?.(),
  };
  return ep as unknown as Endpoint;
}
