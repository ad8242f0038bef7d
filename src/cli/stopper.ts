/**
 * How a long-running command (serve, mcp) learns that it should stop: SIGINT, SIGTERM, an abort of the
 * Io's signal, and, where asked, SIGHUP and the exit of the parent process (this process is re-parented),
 * or any reason the command itself names (stdin at EOF, a broken stdout). Until then it keeps the process
 * alive. After a command that used one returns, the CLI's entry exits promptly even if a library left a
 * handle open (see `stopperUsed`).
 */
import { fstatSync } from 'node:fs';

export interface StopOptions {
  /** Aborting it stops the command (tests, embedders). */
  readonly signal?: AbortSignal | undefined;
  /** Stop on SIGHUP too (the terminal or the client went away). */
  readonly hangup?: boolean;
  /** Stop when the parent process exits. */
  readonly withParent?: boolean;
}

export interface Stopper {
  /** Resolves with the name of what stopped the command: SIGINT, SIGTERM, SIGHUP, abort, parent exited, ... */
  readonly stopped: Promise<string>;
  /** Stop now, for `reason` (the first reason wins). */
  readonly stop: (reason: string) => void;
  /** Stop listening (idempotent); also ends the keep-alive timer. */
  readonly release: () => void;
}

/** How often a stopper looks whether its parent process is still there. */
export const PARENT_POLL_MS = 250;

let used = false;

/** True once a stopper was made in this process: the process is a long-running one. */
export function stopperUsed(): boolean {
  return used;
}

export function untilStopped(options: StopOptions = {}): Stopper {
  used = true;
  const { signal } = options;
  let release = (): void => undefined;
  let stop = (_reason: string): void => undefined;
  const stopped = new Promise<string>((resolve) => {
    const keepAlive = setInterval(() => undefined, 1 << 30);
    const parent = process.ppid;
    const parentWatch = options.withParent
      ? setInterval(() => {
          if (process.ppid !== parent) stop('parent exited');
        }, PARENT_POLL_MS)
      : undefined;
    parentWatch?.unref();
    stop = (reason) => {
      release();
      resolve(reason);
    };
    const onInt = (): void => stop('SIGINT');
    const onTerm = (): void => stop('SIGTERM');
    const onHup = (): void => stop('SIGHUP');
    const onAbort = (): void => stop('abort');
    release = () => {
      clearInterval(keepAlive);
      if (parentWatch) clearInterval(parentWatch);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      process.off('SIGHUP', onHup);
      signal?.removeEventListener('abort', onAbort);
    };
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    if (options.hangup) process.on('SIGHUP', onHup);
    if (signal?.aborted) stop('abort');
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  return { stopped, stop: (reason) => stop(reason), release: () => release() };
}

/**
 * True when this process's stdout is a pipe or a socket: another program reads it, so this process was
 * started by that program (not from a terminal, not with its output sent to a file as `nohup` does).
 */
export function outputIsPiped(): boolean {
  try {
    const st = fstatSync(1);
    return st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}
