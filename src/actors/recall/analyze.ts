/**
 * Detection and extraction over a turn's texts, newest first: the first text that shows a failure
 * decides, and its target is extracted from that text. Pure; runs in the recall worker.
 */
import { BUILTIN_PATTERNS, compileCustomPatterns, detect, type AuthPattern } from '../../core/auth/patterns.js';
import { extractTarget } from '../../core/auth/target.js';
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
  const patterns = patternsFor(req.patterns);
  for (let i = req.texts.length - 1; i >= 0; i--) {
    const text = req.texts[i] ?? '';
    const detection = detect(text, patterns);
    if (detection) return { detection, target: extractTarget(text, detection) };
  }
  return { detection: null, target: null };
}
