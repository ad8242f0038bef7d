/**
 * User messages as the real OpenClaw writes them for a channel's inbound turn, made by OpenClaw's own
 * builders (run with Node 24 against the installed package: `node openclaw-inbound.mjs <openclaw dir>`):
 * the inbound context prefix (conversation info, chat history, reply target, thread starter, forwarded,
 * location) joined to the body as OpenClaw joins it, the channel envelope with the sender label, the
 * timestamp OpenClaw injects, and the older history markers around a channel's recent messages. Prints JSON: [{ name, body, message, openclawStripped }]. OpenClaw's dist
 * files carry content hashes in their names, so each is found by its prefix and its export's letter.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

const dist = join(process.argv[2], 'dist');
/** The export `letter` of the dist file named `<prefix><8-character hash>.mjs` that has it as a function. */
async function exported(prefix, letter) {
  for (const f of readdirSync(dist).filter((x) => x.startsWith(prefix) && /^[\w-]{8}\.mjs$/.test(x.slice(prefix.length)))) {
    const m = await import(join(dist, f));
    if (typeof m[letter] === 'function') return m[letter];
  }
  throw new Error(`no ${prefix}*.mjs in ${dist} exports ${letter}`);
}
const buildPrefix = await exported('inbound-meta-', 'n');
const joinerOf = await exported('inbound-meta-', 'a');
const stripInbound = await exported('strip-inbound-meta-', 'i');
const formatInboundEnvelope = await exported('envelope-', 'r');
const injectTimestamp = await exported('builtin-openclaw-', 'Y');
const buildHistoryContext = await exported('history-', 'o');

const at = (min) => Date.UTC(2026, 10, 27, 15, min);
const utc = { timezone: 'utc' };
/** As OpenClaw's reply runner joins the context and the body (a Telegram quote joins with a space). */
const withContext = (ctx, body) => {
  const prefix = buildPrefix(ctx, utc, undefined).trim();
  return prefix ? `${prefix}${joinerOf(ctx) ?? '\n\n'}${body}` : body;
};
const history = [
  { sender: 'Bob', body: 'I always deploy on fridays', timestamp: at(20), messageId: '4700' },
  { sender: 'Carol', body: 'our staging db is on db9.internal now', timestamp: at(21), messageId: '4701' },
];
const cases = [
  {
    name: 'telegram group: chat history and a quoted reply',
    body: 'my editor is Helix',
    ctx: { ChatType: 'group', OriginatingChannel: 'telegram', Surface: 'telegram', OriginatingTo: 'telegram:-100123', MessageSid: '4711', SenderId: '99', SenderName: 'Dana', SenderUsername: 'dana_k', Timestamp: at(30), ConversationLabel: 'Ops team', GroupSubject: 'Ops team', ReplyToId: '4700', ReplyToSender: 'Bob', ReplyToBody: 'I always deploy on fridays', InboundHistory: history },
  },
  {
    name: 'discord thread: thread starter, forwarded message, location',
    body: 'from now on the billing service deploys with Argo CD.\nI prefer short answers',
    ctx: { ChatType: 'group', OriginatingChannel: 'discord', Surface: 'discord', OriginatingTo: 'discord:channel:55', MessageSid: '9001', SenderId: '7', SenderName: 'Dana', Timestamp: at(31), GroupSubject: '#ops', ThreadLabel: 'deploys', ThreadStarterBody: 'we use Jenkins for everything', ForwardedFrom: 'Eve', ForwardedFromType: 'user', LocationLat: 52.1, LocationLon: 4.3, InboundHistory: history.slice(0, 1) },
  },
  {
    name: 'telegram direct message: conversation info only',
    body: 'remember that the NAS is at 192.168.1.20',
    ctx: { ChatType: 'direct', OriginatingChannel: 'telegram', Surface: 'telegram', OriginatingTo: 'telegram:99', MessageSid: '12', SenderId: '99', SenderName: 'Dana', Timestamp: at(32) },
  },
];
const out = cases.map(({ name, body, ctx }) => ({ name, body, message: withContext(ctx, body) }));
out.push({ name: 'channel envelope of a group message', body: 'we decided to keep backups for 30 days', message: formatInboundEnvelope({ channel: 'Telegram', from: 'Ops team id:-100123', timestamp: at(33), body: 'we decided to keep backups for 30 days', chatType: 'group', senderLabel: 'Dana', envelope: utc }) });
out.push({ name: 'channel envelope of a direct message', body: 'note: my staging box is stg-3', message: formatInboundEnvelope({ channel: 'Signal', from: 'Dana id:+4915112345678', timestamp: at(34), body: 'note: my staging box is stg-3', chatType: 'direct', envelope: utc }) });
out.push({ name: 'timestamp OpenClaw injects into a CLI turn', body: 'I hate tabs, always use spaces', message: injectTimestamp('I hate tabs, always use spaces', { timezone: 'UTC', includeTimestamp: true, now: new Date(at(35)) }) });
out.push({ name: 'timestamp before a group message with context', body: 'my editor is Helix', message: injectTimestamp(withContext(cases[0].ctx, 'my editor is Helix'), { timezone: 'UTC', includeTimestamp: true, now: new Date(at(36)) }) });
out.push({
  name: 'channel history in the older marker format',
  body: 'I always deploy on tuesdays',
  message: buildHistoryContext({ historyText: 'Bob: we deploy on fridays\nCarol: staging is db9', currentMessage: 'I always deploy on tuesdays' }),
});
for (const c of out) c.openclawStripped = stripInbound(c.message);
process.stdout.write(JSON.stringify(out));
