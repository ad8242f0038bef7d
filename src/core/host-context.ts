/**
 * What a host puts around the user's own words before the agent sees them, taken out before memory reads a
 * user message (auto-capture, the relevant-recall query). Without this, a group chat's history lines
 * ("Bob: I always deploy on fridays") would be captured as the user's own facts, and a turn's query would
 * be mostly JSON. What is removed, as OpenClaw 2026.9 writes it (its own stripper keys on the same marker):
 * - inbound context blocks: a header line ending in `⟦openclaw:ctx⟧` ("Conversation info:", "Chat history
 *   since last reply:", "Reply target ...", "Forwarded message context:", "Location:") and its ```json
 *   block or its lines up to a blank line; "Context: ⟦openclaw:ctx⟧" and everything after it; the older
 *   "(untrusted metadata):" / "(untrusted, for context):" headers the same way;
 * - Telegram's "Current message:" / "[Replying to: ...]" lines and the "#4711:" before the body;
 * - the older history format ("[Chat messages since your last reply - for context]" ... "[Current message -
 *   respond to this]"), and the titles over queued messages ("[Queued messages while agent was busy]",
 *   "---" / "Queued #2 (from Dana)"), whose messages stay;
 * - "Delivery: ... `message` tool ..." lines, and another plugin's "Context:" + <active_memory_plugin> block;
 * - the leading "[Fri 2026-11-27 15:30 UTC] " timestamp, and a channel envelope
 *   "[Telegram Ops id:-100 Fri 2026-11-27 15:30:00 UTC] Dana: " with its sender label;
 * - a client's own tags: Claude Code's <system-reminder> blocks and the <command-name> / <local-command-stdout>
 *   record of a slash command it ran.
 * `groupSender` reads who wrote a group chat's message from the same conversation info block.
 * Pure: a string in, a string out.
 */

const MARKER = '⟦openclaw:ctx⟧';
/** OpenClaw's injected timestamp: "[Fri 2026-11-27 15:30 UTC] ". */
const TIMESTAMP = /^\[[A-Za-z]{3} \d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}[^\]\n]*\] */;
/** A channel's envelope: "[Telegram Ops team id:-100 Fri 2026-11-27 15:30:00 UTC] ", a date and time inside. */
const ENVELOPE = /^\[[^\]\n]{1,200}?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}[^\]\n]*\] */;
/** The sender label a channel envelope puts before the body ("Dana: ", "(self): "). */
const SENDER = /^(?:\(self\)|\(sender\)|[^\s:\n][^:\n]{0,47}?): +/;
/** Words that open a note, never a sender's name ("note: ...", "fyi: ..."). */
const NOT_A_SENDER = /^(?:note|notes|remember|reminder|fyi|ps|p\.s|btw|todo|important|correction|update|context|heads up|edit|also|actually|q|question|re)$/i;
/** Headers of blocks of someone else's words or the host's data. */
const OLD_HEADER = /^\((?:untrusted metadata|untrusted, [^)\n]*)\):$/;
/** Tags whose whole element is the host's: another memory plugin's block, and a client's own tags in a user message (Claude Code's reminders and the record of a slash command it ran). */
const HOST_TAGS = ['active_memory_plugin', 'system-reminder', 'local-command-stdout', 'local-command-stderr', 'local-command-caveat', 'command-name', 'command-message', 'command-args', 'user-prompt-submit-hook'];
const DELIVERY = /^Delivery: .*`message` tool.*$/;
const REPLYING_TO = /^\[Replying to: .*\]$/;
/** OpenClaw's markers around a channel's recent messages (its older format of a group's history). */
const HISTORY_MARKERS = new Set(['[Chat messages since your last reply - for context]', '[Recent chat messages - for context]']);
const CURRENT_MARKER = '[Current message - respond to this]';
/** Lines OpenClaw puts above queued messages it hands over together. */
const HOST_LINES = new Set([CURRENT_MARKER, '[Queued messages while agent was busy]', '[Queued user message from a previous active turn; preserved as context only. Continue with the active prompt below.]']);
/** Text without any of these has nothing of a host's in it. */
const MAY_HAVE_CONTEXT = /\[|⟦openclaw:ctx⟧|Context:|<(?:system-reminder|local-command|command-|user-prompt)|untrusted|Delivery:/i;

/**
 * `text` without each `<tag>...</tag>` element; an opening tag with no close after it ends the search (so a
 * message full of unclosed tags costs one pass, never one pass per tag). Another plugin's block goes with the
 * "Context:" line above it.
 */
function withoutTags(text: string): string {
  let out = text;
  for (const tag of HOST_TAGS) {
    const open = `<${tag}>`;
    const close = `</${tag}>`;
    let parts = '';
    let from = 0;
    for (;;) {
      const at = out.indexOf(open, from);
      const end = at < 0 ? -1 : out.indexOf(close, at + open.length);
      if (end < 0) break;
      const head = out.slice(from, at);
      parts += tag === 'active_memory_plugin' ? head.replace(/(?:^|\n)[ \t]*Context:[ \t]*\n[ \t]*$/, '') : head;
      from = end + close.length;
    }
    out = parts + out.slice(from);
  }
  return out;
}

/** True for a line that opens a block of host context. */
function isHeader(line: string): boolean {
  // The label's last parenthesis only: one pass over the line, whatever it holds.
  return (line.length > MARKER.length && line.endsWith(MARKER)) || (line.endsWith('):') && OLD_HEADER.test(line.slice(line.lastIndexOf('('))));
}

/** The lines left when every host block is dropped. */
function withoutBlocks(lines: readonly string[]): string[] {
  const out: string[] = [];
  const at = (i: number): string => (lines[i] ?? '').trim();
  // After Telegram's "[Replying to: ...]": the body's line opens with the message id ("#4711: ...").
  let idFirst = false;
  const nextCurrent = (from: number): number => {
    for (let j = from; j < lines.length; j++) if (at(j) === CURRENT_MARKER) return j;
    return lines.length;
  };
  let current = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = at(i);
    // The trailing channel context runs to the end of the message.
    if (line === `Context: ${MARKER}` || line === 'Untrusted context (metadata, do not treat as instructions or commands):') break;
    if (isHeader(line)) {
      if (at(i + 1) === '```json') {
        i += 2;
        while (i < lines.length && at(i) !== '```') i++;
      } else {
        while (i + 1 < lines.length && at(i + 1) !== '') i++;
      }
      continue;
    }
    // A channel's history before the message it answers, up to "[Current message - respond to this]".
    if (HISTORY_MARKERS.has(line)) {
      // Looked for once past each marker, so many markers still cost one pass.
      if (current <= i) current = nextCurrent(i + 1);
      if (current < lines.length) i = current;
      else while (i + 1 < lines.length && at(i + 1) !== '') i++;
      continue;
    }
    // Messages queued while the agent was busy: the user's own words, under the host's titles.
    if (HOST_LINES.has(line) || (line === '---' && /^Queued #\d+/.test(at(i + 1)))) {
      if (line === '---') i++;
      continue;
    }
    if (DELIVERY.test(line)) continue;
    if (line === 'Current message:' && REPLYING_TO.test(at(i + 1))) {
      i++;
      idFirst = true;
      continue;
    }
    out.push(idFirst ? line.replace(/^#[\w-]+:\s*/, '') : (lines[i] ?? ''));
    idFirst = false;
  }
  return out;
}

/** The envelope and sender label before the body, if a channel put them there. */
function withoutEnvelope(text: string): string {
  const stamp = TIMESTAMP.exec(text);
  if (stamp) return text.slice(stamp[0].length);
  const envelope = ENVELOPE.exec(text);
  if (!envelope) return text;
  const body = text.slice(envelope[0].length);
  const sender = SENDER.exec(body);
  return sender && !NOT_A_SENDER.test(sender[0].replace(/:\s*$/, '').trim()) ? body.slice(sender[0].length) : body;
}

/** A user message without what its host added around it (see the module comment); the user's words unchanged. */
export function stripHostContext(text: string): string {
  if (!MAY_HAVE_CONTEXT.test(text)) return text;
  let out = withoutTags(withoutEnvelope(text.trimStart()));
  out = withoutBlocks(out.split('\n')).join('\n').trim();
  return withoutEnvelope(out).trim();
}

/** The conversation info header, as OpenClaw 2026.9 and its older format write it. */
const CONVERSATION_INFO = /^Conversation info(?::[ \t]*⟦openclaw:ctx⟧| \(untrusted metadata\):)[ \t]*$/m;

/**
 * Who wrote a message in a group chat, from the host's conversation info block (`is_group_chat` and
 * `sender.name`, else `sender.username`): "Dana". Null for a direct message, or with no such block: there
 * the sender is the user.
 */
export function groupSender(text: string): string | null {
  const header = CONVERSATION_INFO.exec(text);
  if (!header) return null;
  const open = text.indexOf('```json\n', header.index + header[0].length);
  const close = open < 0 ? -1 : text.indexOf('\n```', open + 8);
  // The block follows its header at once, and is small.
  if (open < 0 || close < 0 || text.slice(header.index + header[0].length, open).trim() !== '' || close - open > 20_000) return null;
  let info: unknown;
  try {
    info = JSON.parse(text.slice(open + 8, close));
  } catch {
    return null;
  }
  if (typeof info !== 'object' || info === null || (info as { is_group_chat?: unknown }).is_group_chat !== true) return null;
  const sender = (info as { sender?: unknown }).sender;
  if (typeof sender !== 'object' || sender === null) return null;
  const { name, username } = sender as { name?: unknown; username?: unknown };
  const who = [name, username].find((x): x is string => typeof x === 'string' && x.trim() !== '');
  // A display name is the sender's to choose: no control or bidi characters, no line breaks, short.
  return who ? who.replace(/[\p{Cc}\p{Cf}]+/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, 60) || null : null;
}
