/**
 * The part of a turn that showed an authentication failure, for the graph app's "why was this recalled?"
 * panel: the failing line with one line of context on each side (and the command that ran, when the
 * segment is a tool result), cut to a few hundred characters, every secret-looking value redacted.
 */
import type { Detection } from './patterns.js';
import { redactSecrets } from './redact.js';
import type { Segment } from './turn-analysis.js';

/** The excerpt is at most this long (the command line at most COMMAND_MAX of it). */
export const EXCERPT_MAX = 400;
const COMMAND_MAX = 120;

/** The excerpt around `detection` in the newest segment that holds its match, or null when none does. */
export function failureExcerpt(segments: readonly Segment[], detection: Detection): string | null {
  for (let i = segments.length - 1; i >= 0; i--) {
    const seg = segments[i] as Segment;
    const at = seg.text.slice(detection.index, detection.index + detection.match.length) === detection.match ? detection.index : seg.text.lastIndexOf(detection.match);
    if (at < 0 || detection.match === '') continue;
    const lines = seg.text.split('\n');
    let offset = 0;
    let line = 0;
    while (line < lines.length - 1 && offset + (lines[line] as string).length < at) offset += (lines[line++] as string).length + 1;
    let body = lines.slice(Math.max(0, line - 1), line + 2).join('\n').trim();
    const command = seg.call ? `$ ${cut(seg.call.replace(/\s+/g, ' ').trim(), COMMAND_MAX)}\n` : '';
    const room = EXCERPT_MAX - command.length;
    if (body.length > room) {
      // Keep the failing text in view: centre the window on it.
      const local = body.indexOf(detection.match);
      const start = Math.max(0, Math.min(body.length - room + 1, (local < 0 ? 0 : local) - Math.floor(room / 3)));
      body = `${start > 0 ? '…' : ''}${body.slice(start, start + room - 2)}${start + room - 2 < body.length ? '…' : ''}`;
    }
    return redactSecrets(`${command}${body}`);
  }
  return null;
}

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
