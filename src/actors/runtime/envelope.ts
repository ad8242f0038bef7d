/**
 * What crosses a thread: calls as {method, args}, results as an envelope. A thrown error becomes
 * {code, message, details} on the way out (a class instance does not survive postMessage) and a
 * MemoryError again on the way in.
 */
import { MemoryError, fromWire, toWire, type WireError } from '../../core/errors.js';

export interface Call {
  readonly method: string;
  readonly args: readonly unknown[];
}

export type Envelope<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: WireError };

/** Worker side: run `fn`, wrapping its outcome. */
export async function envelope<T>(fn: () => T | Promise<T>): Promise<Envelope<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    return { ok: false, error: toWire(err) };
  }
}

/** Main side: unwrap, rebuilding a typed error. */
export function unwrap<T>(e: Envelope<T>): T {
  if (e.ok) return e.value;
  throw fromWire(e.error);
}

/** Handlers a worker exposes: method name -> async function. */
export type Handlers = Readonly<Record<string, (...args: never[]) => unknown>>;

/** Worker side: dispatch a call to its handler. Unknown methods are a typed error, not a crash. */
export function dispatch(handlers: Handlers, call: Call): Promise<Envelope<unknown>> {
  return envelope(() => {
    const fn = Object.hasOwn(handlers, call.method) ? handlers[call.method] : undefined;
    if (!fn) throw new MemoryError('MEM_ERR_INTERNAL', `worker has no method ${call.method}`);
    return (fn as (...a: readonly unknown[]) => unknown)(...call.args);
  });
}
