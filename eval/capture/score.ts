/**
 * Loading and scoring the labeled capture sets (eval/capture/sets/README.md): a captured fact matches a
 * keep item when its text holds every match term; precision over captured facts, recall over keep items,
 * and any stored secret counted. Shared by run.ts (the report) and train.ts (the classifier's training).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CAPTURE_RULES, type CapturedFact } from '../../src/core/capture.js';

export interface Keep {
  readonly kind: string;
  readonly match: readonly string[];
  /** The `existing` id a correction replaces. */
  readonly supersedes?: string;
}
/** Memory before the conversation. */
export interface Existing {
  readonly id: string;
  readonly text: string;
  readonly entity?: string;
  readonly category?: string;
}
export interface Conversation {
  readonly id: string;
  readonly split: 'dev' | 'test';
  readonly turns: readonly { role: string; content: string }[];
  readonly keep: readonly Keep[];
  readonly secrets?: readonly string[];
  readonly existing?: readonly Existing[];
  /** `existing` ids the user only restates. */
  readonly repeats?: readonly string[];
  /** The file it came from (blind rounds are scored, then folded into dev, file by file). */
  readonly file: string;
}

const DIR = new URL('./sets/', import.meta.url).pathname;

/** The conversations of the given splits, in file order. */
export function loadConversations(splits: readonly string[]): Conversation[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    // A conversation with nothing to keep may leave `keep` out.
    .flatMap((file) => (JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { conversations: (Omit<Conversation, 'file' | 'keep'> & { keep?: Conversation['keep'] })[] }).conversations.map((c) => ({ ...c, keep: c.keep ?? [], file })))
    .filter((c) => splits.includes(c.split));
}

export const matches = (text: string, k: Keep): boolean => k.match.every((m) => text.toLowerCase().includes(m.toLowerCase()));

export interface Score {
  captured: number;
  matched: number;
  keep: number;
  found: number;
  secretsStored: number;
  /** False positives that are credential pointers (a secret masked out: "the admin pw is [not stored: ask the user]"). */
  pointers: number;
  readonly byRule: Map<string, { captured: number; matched: number }>;
  readonly byKind: Map<string, { keep: number; found: number }>;
  readonly misses: string[];
}

export function emptyScore(): Score {
  return { captured: 0, matched: 0, keep: 0, found: 0, secretsStored: 0, pointers: 0, byRule: new Map(CAPTURE_RULES.map((r) => [r, { captured: 0, matched: 0 }])), byKind: new Map(), misses: [] };
}

/** Add one conversation's captured facts to a score. */
export function scoreConversation(s: Score, c: Conversation, facts: readonly CapturedFact[]): void {
  s.captured += facts.length;
  for (const f of facts) {
    const ok = c.keep.some((k) => matches(f.text, k));
    const r = s.byRule.get(f.rule) as { captured: number; matched: number };
    r.captured++;
    if (ok) {
      s.matched++;
      r.matched++;
    } else {
      s.misses.push(`${c.id} FP [${f.rule}] ${f.text}`);
      if (f.redacted) s.pointers++;
    }
    for (const secret of c.secrets ?? [])
      if (f.text.includes(secret)) {
        s.secretsStored++;
        s.misses.push(`${c.id} SECRET [${f.rule}] ${f.text}`);
      }
  }
  for (const k of c.keep) {
    s.keep++;
    const hit = facts.some((f) => matches(f.text, k));
    if (hit) s.found++;
    else s.misses.push(`${c.id} FN [${k.kind}] ${k.match.join(' + ')}`);
    const e = s.byKind.get(k.kind) ?? { keep: 0, found: 0 };
    e.keep++;
    if (hit) e.found++;
    s.byKind.set(k.kind, e);
  }
}

export const precision = (s: Score): number => s.matched / s.captured;
export const recall = (s: Score): number => s.found / s.keep;
export const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '-');
