/**
 * Detection and extraction over a turn (core/auth/turn-analysis.ts), with configured patterns compiled
 * once per set. Pure; runs in the recall worker.
 */
import { BUILTIN_PATTERNS, compileCustomPatterns, type AuthPattern } from '../../core/auth/patterns.js';
import { analyzeTurn } from '../../core/auth/turn-analysis.js';
import type { AnalyzeRequest, AnalyzeResult } from './contract.js';

const compiled = new Map<string, readonly AuthPattern[]>();

export function patternsFor(sources: readonly string[] | null): readonly AuthPattern[] {
  if (!sources) return BUILTIN_PATTERNS;
  const key = JSON.stringify(sources);
  let set = compiled.get(key);
  if (!set) {
    set = compileCustomPatterns(sources);
    if (compiled.size > 16) compiled.clear();
    compiled.set(key, set);
  }
  return set;
}

export function analyze(req: AnalyzeRequest): AnalyzeResult {
  const { detection, target } = analyzeTurn(req.segments, patternsFor(req.patterns), req.patterns === null);
  return { detection, target };
}
