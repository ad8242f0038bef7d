/**
 * Reading a secret for `vault put`. Secrets come from stdin only, never from argv: argv is visible to
 * every local user in `ps` and lands in shell history. On a terminal the input is read with echo off.
 */
import { MemoryError } from '../core/errors.js';
import type { Input, Io, Output } from './spec.js';

interface RawTty extends NodeJS.EventEmitter {
  readonly isTTY?: boolean;
  setRawMode(mode: boolean): unknown;
  setEncoding(encoding: BufferEncoding): unknown;
  resume(): unknown;
  pause(): unknown;
}

const isRawTty = (s: Input): s is Input & RawTty => s.isTTY === true && typeof (s as Partial<RawTty>).setRawMode === 'function';

/** The secret: a hidden prompt on a terminal, else all of stdin minus one trailing newline (as `echo` adds). */
export async function readSecret(io: Io, readStdin: () => Promise<string>, service: string): Promise<string> {
  const stdin = io.stdin ?? process.stdin;
  if (isRawTty(stdin)) return readHidden(stdin, io.stderr, `secret for ${service} (input hidden): `);
  return (await readStdin()).replace(/\r?\n$/, '');
}

function readHidden(stdin: RawTty, out: Output, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (err?: Error): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      out.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: string): void => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003') return finish(new MemoryError('MEM_ERR_USAGE', 'cancelled; nothing was stored'));
        value = ch === '\u007f' || ch === '\b' ? value.slice(0, -1) : value + ch;
      }
    };
    out.write(prompt);
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
  });
}
