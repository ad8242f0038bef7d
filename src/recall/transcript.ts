/**
 * A conversation file as capture reads it (`hybrid-mem capture`): the records a chat client saves, one per
 * line, made into {role, content} turns. Besides the plain {"role", "content"} lines, the session files of
 * the clients people tune on: OpenClaw and pi ({"type": "message", "message": {...}}, tool output as role
 * `toolResult`), Claude Code ({"type": "user" | "assistant", "message": {...}}, tool output as `tool_result`
 * parts of a user message, its meta records skipped), Codex ({"type": "response_item", "payload": {...}}),
 * and OpenAI / Anthropic content parts. Records that are no message (session headers, summaries, tool
 * calls of their own) are skipped; system and developer messages too.
 */
import type { CaptureTurn } from '../core/capture.js';
import { isObj, messageText, RESULT_PARTS, type Obj } from './turn.js';

const ROLES: Readonly<Record<string, 'user' | 'assistant' | 'tool'>> = {
  user: 'user', human: 'user',
  assistant: 'assistant', model: 'assistant', ai: 'assistant',
  tool: 'tool', toolresult: 'tool', tool_result: 'tool', function: 'tool', ipython: 'tool',
};

/** The message a record holds: itself, or the one it wraps. */
function messageOf(r: Obj): Obj | null {
  if (r.isMeta === true) return null;
  if (isObj(r.message) && (r.type === 'message' || r.type === 'user' || r.type === 'assistant')) return r.message;
  if (isObj(r.payload) && r.type === 'response_item') {
    if (r.payload.type === 'message') return r.payload;
    return r.payload.type === 'function_call_output' ? { role: 'tool', content: r.payload.output } : null;
  }
  return typeof r.role === 'string' ? r : null;
}

/** One record as a turn, or null when it is no message of the user, the assistant or a tool. */
export function recordTurn(record: unknown): CaptureTurn | null {
  if (!isObj(record)) return null;
  const m = messageOf(record);
  const role = m && typeof m.role === 'string' ? ROLES[m.role.toLowerCase()] : undefined;
  if (!m || !role) return null;
  const parts = Array.isArray(m.content) ? m.content : null;
  // A user message that carries tool results (Anthropic's shape) is tool output; its own words are read apart.
  const isResult = (p: unknown): boolean => isObj(p) && RESULT_PARTS.has(String(p.type));
  if (role === 'user' && parts?.some(isResult)) {
    const own = parts.filter((p) => !isResult(p));
    return own.length === 0 ? { role: 'tool', content: messageText({ content: parts }) } : { role, content: messageText({ content: own }) };
  }
  return { role, content: messageText(m) };
}

/** Roles a conversation may hold that capture has nothing to read in. */
const UNREAD_ROLES = new Set(['system', 'developer']);

/**
 * Why a plain message record ({role, content} at its top) cannot be read, or null: a role that is no
 * message's, or content that is neither text nor parts. Records of other shapes are not messages to judge.
 */
export function recordProblem(record: unknown): string | null {
  if (!isObj(record) || !('role' in record) || 'message' in record || 'payload' in record) return null;
  if (typeof record.role !== 'string' || !(record.role.toLowerCase() in ROLES || UNREAD_ROLES.has(record.role.toLowerCase()))) return 'its role is not user, assistant, tool or system';
  if (typeof record.content !== 'string' && !Array.isArray(record.content)) return 'its content is neither text nor a list of parts';
  return null;
}

/** The turns of a conversation file's records, oldest first; empty messages left out. */
export function transcriptTurns(records: readonly unknown[]): CaptureTurn[] {
  return records.flatMap((r) => {
    const t = recordTurn(r);
    return t && t.content.trim() !== '' ? [t] : [];
  });
}
