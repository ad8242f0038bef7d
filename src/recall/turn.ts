/**
 * What a gateway hands the hook on each turn, and how its texts are gathered: the prompt and the most
 * recent messages (tool results), bounded so that no turn can make the scan expensive.
 */
import { z } from 'zod';

export const MAX_MESSAGES = 8;
/** Each text is cut to its last MAX_TEXT_CHARS characters (error output sits at the end). */
export const MAX_TEXT_CHARS = 64 * 1024;

export const turnSchema = z.object({
  prompt: z.string().default(''),
  messages: z.array(z.unknown()).default([]),
  sessionId: z.string().min(1).max(200).nullable().default(null),
  agentId: z.string().min(1).max(200).nullable().default(null),
  role: z.enum(['orchestrator', 'specialist']).default('specialist'),
});
export type Turn = z.input<typeof turnSchema>;

/** The text of a message in the shapes gateways use: a string, {content: string}, or content parts. */
export function messageText(m: unknown): string {
  if (typeof m === 'string') return m;
  if (typeof m !== 'object' || m === null) return '';
  const o = m as Record<string, unknown>;
  const c = o.content ?? o.text ?? o.output ?? o.result;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p === 'string' ? p : typeof p === 'object' && p !== null ? String((p as Record<string, unknown>).text ?? '') : '')).join('\n');
  return '';
}

/** Prompt plus the last MAX_MESSAGES message texts, each bounded; oldest first. */
export function turnTexts(turn: { prompt: string; messages: readonly unknown[] }): string[] {
  const texts = [turn.prompt, ...turn.messages.slice(-MAX_MESSAGES).map(messageText)];
  return texts.filter((t) => t.length > 0).map((t) => (t.length > MAX_TEXT_CHARS ? t.slice(-MAX_TEXT_CHARS) : t));
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
