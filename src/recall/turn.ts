/**
 * What a gateway hands the hook on each turn, and how it is read: the prompt and the most recent messages,
 * bounded so that no turn can make the scan expensive. Messages come in the shapes gateways use (OpenClaw,
 * OpenAI chat and Responses, Anthropic, plain strings); tool calls are kept with their arguments, and each
 * tool result is linked to the call that produced it, so the target can be read from the command line.
 */
import { z } from 'zod';
import type { Segment, SegmentRole } from '../core/auth/turn-analysis.js';

/** How many of the newest messages are read (a tool call and its result are two). */
export const MAX_MESSAGES = 16;
/** Each text is cut to its last MAX_TEXT_CHARS characters (error output sits at the end). */
export const MAX_TEXT_CHARS = 64 * 1024;
/** A tool call's arguments are cut to their first MAX_CALL_CHARS characters (the command comes first). */
const MAX_CALL_CHARS = 8 * 1024;

export const turnSchema = z.object({
  prompt: z.string().default(''),
  messages: z.array(z.unknown()).default([]),
  sessionId: z.string().min(1).max(200).nullable().default(null),
  agentId: z.string().min(1).max(200).nullable().default(null),
  role: z.enum(['orchestrator', 'specialist']).default('specialist'),
});
export type Turn = z.input<typeof turnSchema>;

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const CALL_PARTS = new Set(['toolCall', 'tool_call', 'tool_use', 'tool-call', 'function_call', 'functionCall', 'server_tool_use']);
export const RESULT_PARTS = new Set(['toolResult', 'tool_result', 'tool-result', 'function_call_output', 'functionResponse']);
const COMMAND_KEYS = ['command', 'cmd', 'script', 'commandLine', 'command_line', 'code', 'shell', 'argv', 'args'];

const bound = (t: string): string => (t.length > MAX_TEXT_CHARS ? t.slice(-MAX_TEXT_CHARS) : t);

/** Plain text of a content value: a string, or parts with `text` (nested tool-result content included). */
function plainText(c: unknown, depth = 0): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c) && depth < 6) return c.map((p) => plainText(p, depth + 1)).filter((t) => t !== '').join('\n');
  if (!isObj(c) || depth >= 6) return '';
  if (CALL_PARTS.has(String(c.type))) return '';
  const v = c.text ?? c.content ?? c.output ?? c.result ?? c.stdout;
  const text = plainText(v, depth + 1);
  return typeof c.stderr === 'string' && c.stderr !== '' ? [text, c.stderr].filter((t) => t !== '').join('\n') : text;
}

/** The text of a message in the shapes gateways use: a string, {content: string}, or content parts. */
export function messageText(m: unknown): string {
  if (typeof m === 'string') return m;
  if (!isObj(m)) return '';
  return plainText(m.content ?? m.text ?? m.output ?? m.result);
}

/** A tool call's arguments as a command line: its command/script if it has one, else its name and values. */
function callText(name: unknown, args: unknown): string {
  let a: unknown = args;
  if (typeof args === 'string') {
    try {
      a = JSON.parse(args);
    } catch {
      return args.slice(0, MAX_CALL_CHARS);
    }
  }
  const values = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? [v.filter((x) => typeof x === 'string').join(' ')] : isObj(v) ? Object.values(v).flatMap(values) : []);
  if (isObj(a)) {
    const o = a;
    const key = COMMAND_KEYS.find((k) => o[k] !== undefined && o[k] !== '');
    if (key) return values(o[key]).join('\n').slice(0, MAX_CALL_CHARS);
  }
  const tool = typeof name === 'string' && /^[\w.-]{1,64}$/.test(name) ? name : 'tool';
  return `${tool} ${values(a).map((v) => (/\s/.test(v) ? JSON.stringify(v) : v)).join(' ')}`.slice(0, MAX_CALL_CHARS);
}

const ROLES: Readonly<Record<string, SegmentRole>> = { user: 'user', human: 'user', assistant: 'assistant', model: 'assistant', ai: 'assistant', tool: 'result', toolResult: 'result', function: 'result', ipython: 'result' };
const idOf = (o: Obj): string | null => {
  const id = o.toolCallId ?? o.tool_call_id ?? o.tool_use_id ?? o.call_id ?? o.id;
  return typeof id === 'string' ? id : null;
};

/** Segments of one message: its text, and its tool calls and tool results as their own segments. */
function messageSegments(m: unknown, calls: Map<string, string>, last: { call: string | null }): Segment[] {
  if (typeof m === 'string') return m === '' ? [] : [{ role: 'other', text: bound(m), call: null }];
  if (!isObj(m)) return [];
  const role: SegmentRole = ROLES[String(m.role ?? m.type)] ?? (m.type === 'function_call_output' ? 'result' : 'other');
  const out: Segment[] = [];
  const addCall = (id: string | null, name: unknown, args: unknown): void => {
    const text = callText(name, args);
    if (id) calls.set(id, text);
    last.call = text;
    out.push({ role: 'call', text, call: null });
  };
  const addResult = (id: string | null, content: unknown): void => {
    const text = plainText(content);
    if (text !== '') out.push({ role: 'result', text: bound(text), call: (id ? calls.get(id) : undefined) ?? last.call });
  };
  if (CALL_PARTS.has(String(m.type))) addCall(idOf(m), m.name, m.arguments ?? m.input ?? m.args);
  if (Array.isArray(m.tool_calls)) {
    for (const c of m.tool_calls.slice(0, 16)) if (isObj(c)) addCall(idOf(c), isObj(c.function) ? c.function.name : c.name, isObj(c.function) ? c.function.arguments : c.arguments);
  }
  const texts: string[] = [];
  const parts = Array.isArray(m.content) ? m.content.slice(0, 64) : [];
  for (const p of parts) {
    if (isObj(p) && CALL_PARTS.has(String(p.type))) addCall(idOf(p), p.name, p.arguments ?? p.input ?? p.args);
    else if (isObj(p) && RESULT_PARTS.has(String(p.type))) addResult(idOf(p), p.content ?? p.output ?? p.result);
    else texts.push(plainText(p));
  }
  const text = Array.isArray(m.content) ? texts.filter((t) => t !== '').join('\n') : messageText(m);
  if (text !== '') {
    if (role === 'result') out.push({ role, text: bound(text), call: (idOf(m) ? calls.get(idOf(m) as string) : undefined) ?? last.call });
    else out.push({ role, text: bound(text), call: null });
    // An agent that shows what it ran as a terminal transcript (a fenced block starting with `$ cmd`)
    // reports tool output in its own message: the block is read as a tool result, its prose is not.
    if (role === 'assistant') for (const block of transcripts(text)) out.push({ role: 'result', text: bound(block), call: null });
  }
  return out;
}

const FENCED = /```[^\n]*\n([\s\S]{1,65536}?)```/g;

const PROMPT_LINE = /^\s{0,4}(?:[\w.-]{1,32}@[\w.-]{1,64}:[^\s$#]{0,120})?[$#] \S/;

/**
 * Fenced blocks of a message that are terminal transcripts (their first line is a `$ ` command), one
 * piece per command with its output, so a retry later in the same block reads as a later result.
 */
function transcripts(text: string): string[] {
  if (!text.includes('```')) return [];
  const out: string[] = [];
  for (const m of text.matchAll(FENCED)) {
    const block = m[1] ?? '';
    if (!PROMPT_LINE.test(block)) continue;
    let piece: string[] = [];
    for (const line of block.split('\n')) {
      if (PROMPT_LINE.test(line) && piece.length > 0) {
        out.push(piece.join('\n'));
        piece = [];
      }
      piece.push(line);
    }
    if (piece.length > 0) out.push(piece.join('\n'));
    if (out.length >= 16) break;
  }
  return out.slice(0, 16);
}

/** The turn as segments, oldest first: the last MAX_MESSAGES messages, then the prompt (the newest text). */
export function turnSegments(turn: { prompt: string; messages: readonly unknown[] }): Segment[] {
  const calls = new Map<string, string>();
  const last = { call: null as string | null };
  const out = turn.messages.slice(-MAX_MESSAGES).flatMap((m) => messageSegments(m, calls, last));
  if (turn.prompt !== '') out.push({ role: 'prompt', text: bound(turn.prompt), call: null });
  return out;
}

/** Prompt plus the last MAX_MESSAGES message texts, each bounded (the prefilter's input). */
export function turnTexts(turn: { prompt: string; messages: readonly unknown[] }): string[] {
  const texts = [...turn.messages.slice(-MAX_MESSAGES).map(messageText), turn.prompt];
  return texts.filter((t) => t.length > 0).map(bound);
}

const optionalId = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.length >= 1 && v.length <= 200);

/**
 * The texts of a turn that is already well-formed, without the schema parser (the per-turn fast path:
 * most turns end at the prefilter). Anything unusual returns null, and the caller validates with
 * `turnSchema`, so bad input still gets its typed error.
 */
export function quickTexts(input: unknown): string[] | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  const t = input as Record<string, unknown>;
  if (t.prompt !== undefined && typeof t.prompt !== 'string') return null;
  if (t.messages !== undefined && !Array.isArray(t.messages)) return null;
  if (!optionalId(t.sessionId) || !optionalId(t.agentId)) return null;
  if (t.role !== undefined && t.role !== 'orchestrator' && t.role !== 'specialist') return null;
  return turnTexts({ prompt: (t.prompt as string | undefined) ?? '', messages: (t.messages as unknown[] | undefined) ?? [] });
}
