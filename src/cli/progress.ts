/**
 * Progress on long CLI work (embedding, import, export): on a terminal, one line redrawn in place with the
 * count, the rate and the time left; off a terminal (logs, CI, pipes) or with --json, nothing: the
 * command's result line says what was done.
 */
import type { Progress } from '../core/types.js';
import type { CliSession, Output } from './spec.js';

/** A reporter drawing on `out` when it is a terminal, at most ~10 times a second, and always at the end. */
export function progressReporter(out: Output, label: string, now: () => number = Date.now): (p: Progress) => void {
  const started = now();
  let drawn = -Infinity;
  return ({ done, total }) => {
    if (!out.isTTY) return;
    const t = now();
    if (done < total && t - drawn < 100) return;
    drawn = t;
    const ratio = total === 0 ? 1 : Math.min(1, done / total);
    const width = 30;
    const filled = Math.round(ratio * width);
    const seconds = (t - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const left = rate > 0 && done < total ? `, ${Math.ceil((total - done) / rate)} s left` : '';
    out.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} (${rate.toFixed(0)}/s${left})\x1b[K${done >= total ? '\n' : ''}`);
  };
}

/** The command's reporter on stderr, or none with --json (machine output stays clean). */
export function progressFor(cli: CliSession, label: string): ((p: Progress) => void) | undefined {
  return cli.json ? undefined : progressReporter(cli.io.stderr, label);
}
