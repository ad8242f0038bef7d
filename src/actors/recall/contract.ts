/** The recall actor's contract (types only): full auth-failure detection and target extraction. */
import type { Detection } from '../../core/auth/patterns.js';
import type { Target } from '../../core/auth/target.js';
import type { Segment } from '../../core/auth/turn-analysis.js';

export interface AnalyzeRequest {
  /** The turn, oldest first: messages, tool calls and results, then the prompt. */
  readonly segments: readonly Segment[];
  /** Configured patterns (replace the built-in set), or null for the built-in set. */
  readonly patterns: readonly string[] | null;
}

export interface AnalyzeResult {
  readonly detection: Detection | null;
  readonly target: Target | null;
}

export interface RecallWorkerApi {
  analyze(req: AnalyzeRequest): Promise<AnalyzeResult>;
}
