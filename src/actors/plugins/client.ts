/**
 * The main process's handle of one plugin's child process (launch.ts starts it in the sandbox). Calls
 * run one at a time, in order, as they did in a worker thread of one: each waits its turn, and its budget
 * counts from when it was made. A call past its budget while it runs means the plugin hangs: the process
 * is killed (SIGKILL; a spinning loop ignores nothing else) and every request still pending on it fails;
 * a call that ran out of time while still waiting fails alone, and the process lives on. A process that
 * dies (a crash, an uncaught error, process.exit, the heap limit) fails what it was running with
 * MEM_ERR_ACTOR_CRASHED, naming its last words when it sent them. Either way the next call starts a fresh
 * process and loads the plugin again (its init runs again). A failed init is final for this handle: the
 * plugin is broken until the service loads it again.
 *
 * The child's requests (context.service, emit, logger) are served by a fresh facade per process, so its
 * declared capabilities start over with it. Everything the child sends is checked before it is used.
 */
import type { ChildProcess } from 'node:child_process';
import { MemoryError, isErrorCode } from '../../core/errors.js';
import { unwrap, type Envelope } from '../runtime/envelope.js';
import { FACADE_METHODS, type ChildMethod, type LogLevel, type PluginFacadeApi, type PluginInitResult, type PluginSpec, type SandboxSpec, type ToChild } from './contract.js';
import { hostCode } from './host-code.js';
import { launch } from './launch.js';

export interface PluginClientOptions {
  readonly spec: PluginSpec;
  /** The sandbox each process starts in (asked at every start; throwing refuses the load). */
  readonly sandbox: () => SandboxSpec;
  /** The plugin's folder: the process's working directory. */
  readonly cwd: string;
  readonly initTimeoutMs: number;
  /** Default budget of a call. */
  readonly timeoutMs: number;
  /** A fresh facade for each process. */
  readonly openFacade: () => PluginFacadeApi;
  /** A process was replaced (hung or died). */
  readonly onReplaced?: (reason: string) => void;
}

type Settle = (outcome: Envelope<unknown> | MemoryError) => void;

interface Live {
  readonly proc: ChildProcess;
  readonly facade: PluginFacadeApi;
  readonly pending: Map<number, Settle>;
  loaded: Promise<PluginInitResult> | null;
  dead: boolean;
  /** What the child said before it died (an uncaught error). */
  lastWords: string | null;
  /** The call whose budget ran out while this process ran it (we killed it). */
  killedFor: string | null;
}

const LEVELS: ReadonlySet<string> = new Set<LogLevel>(['info', 'warn', 'error', 'debug']);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A reply's envelope as sent by the child, checked. */
function readEnvelope(v: unknown): Envelope<unknown> {
  if (isRecord(v) && v.ok === true) return { ok: true, value: v.value };
  if (isRecord(v) && v.ok === false && isRecord(v.error) && typeof v.error.code === 'string' && typeof v.error.message === 'string') {
    const code = isErrorCode(v.error.code) ? v.error.code : 'MEM_ERR_INTERNAL';
    return { ok: false, error: { code, message: v.error.message, ...(isRecord(v.error.details) ? { details: v.error.details } : {}) } };
  }
  return { ok: false, error: { code: 'MEM_ERR_INVALID_INPUT', message: 'the plugin process answered with something that is not an answer' } };
}

export class PluginClient {
  private live: Live | null = null;
  private queue: Promise<void> = Promise.resolve();
  private ready: Promise<PluginInitResult> | null = null;
  private initFailure: unknown = null;
  private replacedCount = 0;
  private closing = false;
  private closed = false;
  private nextId = 1;

  constructor(private readonly options: PluginClientOptions) {}

  /** How many times the process was replaced. */
  get replaced(): number {
    return this.replacedCount;
  }

  /** Load the plugin in the current process (starting one if needed), once per process. */
  init(): Promise<PluginInitResult> {
    return (this.ready ??= this.schedule('init', this.options.initTimeoutMs, async () => this.loaded()));
  }

  /** Call a child method after init; a replaced process is started and initialised first. */
  async call<T>(method: Exclude<ChildMethod, 'init'>, args: readonly unknown[], timeoutMs?: number): Promise<T> {
    await this.init();
    return this.schedule(method, timeoutMs ?? this.options.timeoutMs, async () => {
      await this.loaded();
      return (await this.request(this.live as Live, method, args)) as T;
    });
  }

  /** Run `work` in turn, within `timeoutMs` from now. */
  private schedule<T>(what: string, timeoutMs: number, work: () => Promise<T>): Promise<T> {
    const name = `plugin ${this.options.spec.id}.${what}`;
    if (this.closing) return Promise.reject(new MemoryError('MEM_ERR_ACTOR_CLOSED', `${name}: shut down`));
    return new Promise<T>((resolve, reject) => {
      let state: 'queued' | 'running' | 'done' = 'queued';
      const timer = setTimeout(() => {
        const was = state;
        state = 'done';
        if (was === 'running') {
          reject(new MemoryError('MEM_ERR_ACTOR_TIMEOUT', `${name}: no answer within ${timeoutMs} ms; its process was killed and is started again for the next call`));
          if (this.live) this.kill(this.live, what, `${what} ran past ${timeoutMs} ms`);
        } else {
          reject(new MemoryError('MEM_ERR_ACTOR_TIMEOUT', `${name}: no answer within ${timeoutMs} ms (it was still waiting for an earlier call)`));
        }
      }, timeoutMs);
      const settle = (fn: () => void): void => {
        if (state !== 'running') return;
        state = 'done';
        clearTimeout(timer);
        fn();
      };
      this.queue = this.queue.then(async () => {
        if (state !== 'queued') return;
        state = 'running';
        if (this.closed) return settle(() => reject(new MemoryError('MEM_ERR_ACTOR_CLOSED', `${name}: shut down`)));
        try {
          const value = await work();
          settle(() => resolve(value));
        } catch (err) {
          settle(() => reject(err));
        }
      });
    });
  }

  /** The current process with the plugin loaded: started and initialised here if needed. */
  private async loaded(): Promise<PluginInitResult> {
    if (this.initFailure) throw this.initFailure;
    const live = this.live ?? this.start(await hostCode());
    live.loaded ??= (this.request(live, 'init', [this.options.spec]) as Promise<PluginInitResult>).catch((err: unknown) => {
      // Final, unless the process was killed because a call (not this init) ran out of time while it
      // loaded the plugin again: then the next call simply tries again.
      if (!this.closed && (live.killedFor === null || live.killedFor === 'init')) this.initFailure ??= err;
      throw err;
    });
    return live.loaded;
  }

  private start(host: Awaited<ReturnType<typeof hostCode>>): Live {
    if (this.closed) throw new MemoryError('MEM_ERR_ACTOR_CLOSED', `plugin ${this.options.spec.id}: shut down`);
    const proc = launch(this.options.sandbox(), host, this.options.cwd);
    const live: Live = { proc, facade: this.options.openFacade(), pending: new Map(), loaded: null, dead: false, lastWords: null, killedFor: null };
    proc.on('message', (m: unknown) => this.onMessage(live, m));
    proc.on('exit', (code, signal) => this.onDeath(live, `exit ${signal ?? `code ${code}`}`));
    proc.on('error', (err) => this.onDeath(live, err.message));
    // An idle plugin process must not keep a CLI command alive (the channel is held while a call is out).
    proc.unref();
    proc.channel?.unref();
    this.live = live;
    return live;
  }

  private request(live: Live, method: ChildMethod, args: readonly unknown[]): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      if (live.dead) return reject(this.deathError(live, 'the process had died'));
      const id = this.nextId++;
      live.pending.set(id, (outcome) => {
        live.pending.delete(id);
        if (live.pending.size === 0) live.proc.channel?.unref();
        if (outcome instanceof MemoryError) return reject(outcome);
        try {
          resolve(unwrap(outcome));
        } catch (err) {
          reject(err);
        }
      });
      live.proc.channel?.ref();
      const message: ToChild = { kind: 'call', id, method, args };
      try {
        live.proc.send(message);
      } catch (err) {
        live.pending.get(id)?.(new MemoryError('MEM_ERR_INVALID_INPUT', `plugin ${this.options.spec.id}.${method}: the call could not be sent (${(err as Error).message})`));
      }
    });
  }

  private onMessage(live: Live, m: unknown): void {
    if (!isRecord(m) || typeof m.kind !== 'string') return;
    if (m.kind === 'reply' && typeof m.id === 'number') return live.pending.get(m.id)?.(readEnvelope(m.envelope));
    if (m.kind === 'fatal' && isRecord(m.error)) {
      live.lastWords = `${String(m.error.code)}: ${String(m.error.message)}`.slice(0, 2000);
      return;
    }
    if (m.kind === 'request' && typeof m.id === 'number') void this.serve(live, m.id, m.method, m.args);
  }

  /** Answer one of the child's facade requests. */
  private async serve(live: Live, id: number, method: unknown, args: unknown): Promise<void> {
    let envelope: Envelope<unknown>;
    const a = Array.isArray(args) ? (args as unknown[]) : [];
    try {
      if (!(FACADE_METHODS as readonly unknown[]).includes(method) || !Array.isArray(args)) throw new MemoryError('MEM_ERR_INVALID_INPUT', `plugin process: no facade method ${String(method)}`);
      const f = live.facade;
      if (method === 'declare') envelope = { ok: true, value: await f.declare(a[0] as PluginInitResult['capabilities']) };
      else if (method === 'call') envelope = await f.call(String(a[0]), Array.isArray(a[1]) ? (a[1] as unknown[]) : (a[1] as never));
      else if (method === 'emit') envelope = await f.emit(String(a[0]), a[1]);
      else envelope = { ok: true, value: await f.log(LEVELS.has(String(a[0])) ? (a[0] as LogLevel) : 'info', String(a[1])) };
    } catch (err) {
      const e = err instanceof MemoryError ? err : new MemoryError('MEM_ERR_INTERNAL', String(err));
      envelope = { ok: false, error: { code: e.code, message: e.message } };
    }
    if (live.dead || !live.proc.connected) return;
    const answer: ToChild = { kind: 'answer', id, envelope };
    try {
      live.proc.send(answer);
    } catch (err) {
      live.proc.send({ kind: 'answer', id, envelope: { ok: false, error: { code: 'MEM_ERR_INTERNAL', message: `the answer could not be sent (${(err as Error).message})` } } } satisfies ToChild);
    }
  }

  private deathError(live: Live, reason: string): MemoryError {
    const words = live.lastWords ? `; it said ${live.lastWords}` : '';
    return new MemoryError('MEM_ERR_ACTOR_CRASHED', `plugin ${this.options.spec.id}: its process died (${reason}${words}); a fresh one is started for the next call`);
  }

  /** The process is gone (or being killed): fail what it had, count the replacement, forget it. */
  private onDeath(live: Live, reason: string): void {
    if (live.dead) return;
    live.dead = true;
    if (this.live === live) this.live = null;
    const error = this.closed ? new MemoryError('MEM_ERR_ACTOR_CLOSED', `plugin ${this.options.spec.id}: shut down`) : this.deathError(live, reason);
    for (const settle of [...live.pending.values()]) settle(error);
    if (this.closed) return;
    this.replacedCount++;
    if (!this.initFailure) this.ready = null;
    this.options.onReplaced?.(live.lastWords ? `${reason}; ${live.lastWords}` : reason);
  }

  private kill(live: Live, what: string, reason: string): void {
    live.killedFor = what;
    this.onDeath(live, `killed: ${reason}`);
    live.proc.kill('SIGKILL');
  }

  /** Let the running and queued calls finish (up to `graceMs`), then stop the process. */
  async close(graceMs = 1000): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.queue, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    this.closed = true;
    const live = this.live;
    this.live = null;
    if (live) {
      this.onDeath(live, 'shut down');
      live.proc.kill('SIGKILL');
    }
  }
}
