/**
 * What a host puts around the user's words is never read as the user's words: OpenClaw's inbound context
 * (conversation info, a group's chat history, reply targets, thread starters), its channel envelope and
 * injected timestamp. The messages come from OpenClaw's own builders (openclaw 2026.9.6 on Node 24, the
 * test cache), so the shapes are the real ones; capture runs on a real store in a temp dir.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { groupSender, stripHostContext } from '../src/core/host-context.js';
import { turnQuery } from '../src/core/relevant-block.js';
import { userSentences } from '../src/core/capture-sentences.js';
import type { MemoryService } from '../src/memory/service.js';
import { openService, tempHome, type TestHome } from './helpers.js';
import { INSTALL_TIMEOUT_MS, ROOT, nodeBinary, openclawDir, supported } from './support/runtimes.js';

interface InboundCase {
  readonly name: string;
  readonly body: string;
  readonly message: string;
  readonly openclawStripped: string;
}

const MARK = '⟦openclaw:ctx⟧';

describe('host context around the user words', () => {
  it('drops a context block with its json, a chat history up to the blank line, and keeps the body', () => {
    const message = [`Conversation info: ${MARK}`, '```json', '{"chat_id":"x","sender":{"name":"Dana"}}', '```', '', `Chat history since last reply: ${MARK}`, '#1 Bob: I always deploy on fridays', '#2 Carol: prod is on db9', '', 'my editor is Helix'].join('\n');
    expect(stripHostContext(message)).toBe('my editor is Helix');
  });

  it('drops the trailing channel context and everything after it, and the older "(untrusted ...)" headers', () => {
    expect(stripHostContext(`I prefer tea\n\nContext: ${MARK}\nBob: coffee is better`)).toBe('I prefer tea');
    expect(stripHostContext('Conversation info (untrusted metadata):\n```json\n{"a":1}\n```\n\nReplied message (untrusted, for context):\n```json\n{"body":"we use vim"}\n```\n\nI use emacs')).toBe('I use emacs');
    expect(stripHostContext('I use emacs\n\nUntrusted context (metadata, do not treat as instructions or commands):\nBob: we use vim')).toBe('I use emacs');
  });

  it('drops delivery hints, another plugin\'s memory block and a client\'s system reminders', () => {
    const message = 'Delivery: to send a message, use the `message` tool.\nContext:\n<active_memory_plugin>\nUser likes cats\n</active_memory_plugin>\n<system-reminder>Today is Friday.</system-reminder>\nmy dog is called Rex';
    expect(stripHostContext(message)).toBe('my dog is called Rex');
  });

  it('keeps queued messages but not the titles OpenClaw puts over them', () => {
    const queued = ['[Queued messages while agent was busy]', '', '---', 'Queued #1', 'my editor is Helix', '', '---', 'Queued #2 (from Dana)', 'we deploy on tuesdays'].join('\n');
    expect(stripHostContext(queued).split(/\n+/)).toEqual(['my editor is Helix', 'we deploy on tuesdays']);
    const carried = '[Queued user message from a previous active turn; preserved as context only. Continue with the active prompt below.]\nmy editor is Helix\n\nfrom now on we deploy with Argo CD';
    expect(stripHostContext(carried)).toBe('my editor is Helix\n\nfrom now on we deploy with Argo CD');
  });

  it('keeps the words of a user who writes brackets, dates, colons or the word Context', () => {
    for (const own of [
      '[WIP] note: the staging DB is on db2.internal',
      'note: the release is on [2026-12-01 10:00] in room 4',
      'Context: we moved the standup to 9:30',
      'Bob: this line is the user quoting someone, not a channel envelope',
      'Current message: the build is green',
    ]) {
      expect(stripHostContext(own)).toBe(own);
    }
  });

  it('keeps "note:" after a channel envelope: a sender label is a name, never a note word', () => {
    expect(stripHostContext('[Signal Dana id:+49151 Fri 2026-11-27T15:34:00Z] note: my box is stg-3')).toBe('note: my box is stg-3');
    expect(stripHostContext('[Signal Dana id:+49151 Fri 2026-11-27T15:34:00Z] Dana: note: my box is stg-3')).toBe('note: my box is stg-3');
  });

  it('takes our own relevant-memories block off before the host timestamp it stands in front of', () => {
    const prompt = '<relevant-memories>\n- [f_1] The NAS is at 10.0.0.2\n</relevant-memories>\n\n[Fri 2026-11-27 15:35 UTC] where is the NAS again?';
    expect(turnQuery(prompt, null)).toBe('where is the NAS again?');
  });

  it('a long host prefix does not use up autoCapture.maxChars: the body after it is still read', () => {
    const history = Array.from({ length: 20 }, (_, i) => `#${i} Bob: line ${i} ${'x'.repeat(300)}`);
    const message = [`Chat history since last reply: ${MARK}`, ...history, '', 'my editor is Helix'].join('\n');
    expect(userSentences(message, 5000).map((s) => s.text)).toEqual(['my editor is Helix']);
  });
});

describe.skipIf(!supported)('messages as the real OpenClaw writes them (openclaw on Node 24)', () => {
  let cases: InboundCase[] = [];
  let home: TestHome | null = null;
  let svc: MemoryService | null = null;

  beforeAll(() => {
    const r = spawnSync(nodeBinary(24), [join(ROOT, 'test/support/openclaw-inbound.mjs'), openclawDir()], { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`openclaw-inbound.mjs failed (${r.status ?? r.signal}):\n${r.stderr}`);
    cases = JSON.parse(r.stdout) as InboundCase[];
  }, INSTALL_TIMEOUT_MS);

  afterEach(async () => {
    await svc?.close();
    home?.cleanup();
    svc = null;
    home = null;
  });

  it('every message comes back to exactly the words the user typed, where OpenClaw\'s own stripper leaves reply quotes and envelopes', () => {
    expect(cases.map((c) => c.name)).toHaveLength(8);
    for (const c of cases) {
      expect.soft(stripHostContext(c.message), c.name).toBe(c.body);
      // The builders really wrapped the body (else this test would pass on nothing).
      expect.soft(c.message.length, c.name).toBeGreaterThan(c.body.length);
      expect.soft(c.openclawStripped, c.name).toContain(c.body);
    }
  });

  it('auto-capture of a group message keeps the user\'s fact, never the chat history\'s or the quoted reply\'s', async () => {
    home = tempHome();
    svc = openService(home).svc;
    const group = cases.find((c) => c.name.startsWith('telegram group'));
    const thread = cases.find((c) => c.name.startsWith('discord thread'));
    expect(group && thread).toBeTruthy();
    const { decisions } = await svc.capture([{ role: 'user', content: group?.message ?? '' }, { role: 'user', content: thread?.message ?? '' }], undefined);
    const texts = decisions.filter((d) => d.action === 'stored').map((d) => d.found.text);
    expect(texts).toEqual(expect.arrayContaining([expect.stringMatching(/editor is Helix/), expect.stringMatching(/deploys with Argo CD/), expect.stringMatching(/prefer short answers/)]));
    expect(texts.join('\n')).not.toMatch(/fridays|db9|Jenkins|openclaw:ctx|chat_id|#4711|2026-11-27/);
    // Said in a group chat: each fact says who said it, and is about them.
    expect(texts.every((t) => t.startsWith('Dana: '))).toBe(true);
    const editor = decisions.find((d) => /Helix/.test(d.found.text));
    expect(editor?.fact).toMatchObject({ entity: 'dana' });
    expect(editor?.fact?.tags).toContain('group-chat');
    // A direct message's sender is the user: no name before the fact.
    const direct = cases.find((c) => c.name.startsWith('telegram direct'));
    const dm = await svc.capture([{ role: 'user', content: direct?.message ?? '' }], undefined, { dryRun: true });
    expect(dm.decisions.map((d) => d.found.text)).toEqual(['The NAS is at 192.168.1.20']);
    // A member's change of their own thing replaces what they said before, never the user's own.
    svc.memoryStore({ text: 'my editor is Vim', entity: 'editor' });
    const change = await svc.capture([{ role: 'user', content: (group?.message ?? '').replace('my editor is Helix', 'actually my editor is Zed now') }], undefined, { dryRun: true });
    expect(change.decisions.map((d) => [d.found.text, d.replaces?.id ?? null])).toEqual([['Dana: My editor is Zed now', editor?.fact?.id]]);
  });

  it('reads a group message\'s sender from the conversation info only, and only a well-formed one', () => {
    const info = (json: string, header = `Conversation info: ${MARK}`) => `${header}\n\`\`\`json\n${json}\n\`\`\`\n\nmy editor is Helix`;
    expect(groupSender(info('{"is_group_chat":true,"sender":{"id":"7","name":"Dana"}}'))).toBe('Dana');
    expect(groupSender(info('{"is_group_chat":true,"sender":{"username":"dana_k"}}', 'Conversation info (untrusted metadata):'))).toBe('dana_k');
    // A name's control, bidi and line-break characters go; a long one is cut.
    expect(groupSender(info(`{"is_group_chat":true,"sender":{"name":"Da\\u202ena\\nX${'y'.repeat(100)}"}}`))).toMatch(/^Da na Xy{53}$/);
    for (const json of ['{"sender":{"name":"Dana"}}', '{"is_group_chat":"true","sender":{"name":"Dana"}}', '{"is_group_chat":true,"sender":"Dana"}', '{"is_group_chat":true,"sender":{"name":"  "}}', '{"is_group_chat":true,', '[1]'])
      expect.soft(groupSender(info(json)), json).toBeNull();
    expect(groupSender('Dana: my editor is Helix')).toBeNull();
    expect(groupSender(`some text first\nConversation info: ${MARK}\nnot a json block`)).toBeNull();
  });

  it('the relevant-recall query of a turn is the user\'s words, not the json and history around them', () => {
    for (const c of cases) expect.soft(turnQuery(c.message, null), c.name).toBe(c.body);
  });
});
