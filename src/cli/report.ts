/**
 * Printing results and errors. Errors are one line on stderr: `hybrid-mem: <CODE>: <message>`, or with
 * --json one line `{"error":{"code","message","details"}}` on stderr (stdout carries only results, so
 * `hybrid-mem --json export > file` never writes an error into the file). Exit code 2 for a malformed
 * command line (MEM_ERR_USAGE: nothing ran), 1 for every other error; the stack (with causes) only when
 * HYBRID_MEM_DEBUG=1.
 *
 * Terminal safety: every human line goes through escapeTerminal (control and bidi characters shown as
 * `\u001b`-style escapes), so text a fact brought along (also from a database written before input was
 * checked) cannot drive the terminal. --json output is exact JSON; a `raw` result (a secret or document
 * for a pipe) is written unchanged.
 */
import { asMemoryError, exitCodeOf } from '../core/errors.js';
import { escapeTerminal } from '../core/terminal.js';
import type { CommandResult, Io } from './spec.js';

export function printResult(r: CommandResult, io: Io, json: boolean): void {
  if (r.silent) return;
  if (json) {
    io.stdout.write(`${r.pretty ? JSON.stringify(r.json, null, 2) : JSON.stringify(r.json)}\n`);
    return;
  }
  const out = r.humanTo === 'stderr' ? io.stderr : io.stdout;
  const joined = typeof r.human === 'string' ? r.human : r.human.join('\n');
  const text = r.raw ? joined : escapeTerminal(joined);
  out.write(r.exact ? text : `${text}\n`);
}

/** Print `err` and return its exit code (exitCodeOf). */
export function reportError(err: unknown, io: Io, json: boolean): number {
  const e = asMemoryError(err);
  const message = e.message.replace(/\s*\n\s*/g, ' ').trim();
  if (json) {
    io.stderr.write(`${JSON.stringify({ error: { code: e.code, message, details: e.details ?? null } })}\n`);
  } else {
    io.stderr.write(`hybrid-mem: ${e.code}: ${escapeTerminal(message)}\n`);
  }
  if (io.env.HYBRID_MEM_DEBUG === '1') io.stderr.write(`${escapeTerminal(stackOf(err))}\n`);
  return exitCodeOf(e.code);
}

function stackOf(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && depth < 5; depth++) {
    parts.push(e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e));
    e = e instanceof Error ? e.cause : undefined;
    if (e !== undefined) parts.push('caused by:');
  }
  return parts.join('\n');
}
