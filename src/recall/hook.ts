/**
 * The authentication-failure auto-recall hook (spec part A). On every turn: a prefilter on this thread
 * lets the common turn pass in microseconds; a turn with a candidate goes to the recall actor for full
 * detection and target extraction (with a deadline); then credential facts about the target are searched
 * (full text + vectors, credential facts only, hint scope), and a hint is returned to prepend. Counters
 * limit recalls per target per session. The hook never throws into the gateway: any failure means no hint
 * and a log line. Logs name targets only, never secret values.
 */
import { RecallClient } from '../actors/recall/client.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { failureExcerpt } from '../core/auth/excerpt.js';
import { BUILTIN_PATTERNS, prefilter } from '../core/auth/patterns.js';
import { analyzeTurn } from '../core/auth/turn-analysis.js';
import { formatHint, redactSecrets, searchQuery, type HintItem } from '../core/auth/hint.js';
import { toWire } from '../core/errors.js';
import type { FactId } from '../core/ids.js';
import type { MemoryService } from '../memory/service.js';
import { RecallCounters } from './counters.js';
import { quickTexts, turnSchema, turnSegments, turnTexts, type Turn } from './turn.js';

export interface AuthRecallOutcome {
  readonly detected: boolean;
  readonly target: string | null;
  readonly factIds: readonly FactId[];
  readonly hint: string | null;
  /** Why no hint was given, when none was. */
  readonly reason: string | null;
}

export interface AuthRecallOptions {
  readonly log?: (line: string) => void;
  /** Deadline of full detection in the recall worker. */
  readonly detectTimeoutMs?: number;
  /** Deadline of the vector leg of the credential search (the full-text leg always answers). */
  readonly vectorDeadlineMs?: number;
}

/** Turns up to this many characters (texts and tool calls) are analysed on the calling thread. */
export const INLINE_CHARS = 16 * 1024;

const none = (reason: string, detected = false, target: string | null = null): AuthRecallOutcome => ({ detected, target, factIds: [], hint: null, reason });

export class AuthRecallHook {
  private readonly recall: RecallClient;
  private readonly counters = new RecallCounters();
  private readonly log: (line: string) => void;

  constructor(
    private readonly svc: MemoryService,
    private readonly config: ResolvedConfig,
    private readonly options: AuthRecallOptions = {},
  ) {
    this.recall = new RecallClient({ timeoutMs: options.detectTimeoutMs ?? 250 });
    this.log = options.log ?? (() => undefined);
  }

  /** The gateway entry: the text to prepend, or null. Never throws. */
  async onTurn(turn: Turn): Promise<string | null> {
    try {
      return (await this.evaluate(turn)).hint;
    } catch (err) {
      const w = toWire(err);
      this.log(`auth-recall: no hint (internal failure: ${w.code}: ${w.message})`);
      return null;
    }
  }

  /** The whole decision, for the CLI checker and tests. Throws only on invalid input. */
  async evaluate(input: Turn): Promise<AuthRecallOutcome> {
    const a = this.config.autoRecall;
    if (!a.enabled || !a.authFailure.enabled) return none('auto-recall disabled');
    const custom = a.authFailure.patterns;
    // The common turn ends here, in microseconds: well-formed input, no candidate (the prefilter knows the
    // built-in set only; a configured set always goes to the worker).
    const quick = quickTexts(input);
    if (!custom && quick && !quick.some((t) => prefilter(t))) return none('no failure indicator');
    const turn = turnSchema.parse(input);
    const texts = quick ?? turnTexts(turn);
    if (!quick && !custom && !texts.some((t) => prefilter(t))) return none('no failure indicator');
    const segments = turnSegments(turn);
    // A small turn with the built-in set is read here (linear rules over a few KB: ~0.3 ms, less than the
    // worker round trip); a large one, or a configured pattern set, goes to the recall worker's deadline.
    const size = segments.reduce((n, seg) => n + seg.text.length + (seg.call?.length ?? 0), 0);
    const { detection, target } = !custom && size <= INLINE_CHARS ? analyzeTurn(segments, BUILTIN_PATTERNS, true) : await this.recall.analyze({ segments, patterns: custom });
    if (!detection) return none('no failure indicator');
    if (!target) {
      this.log(`auth-recall: ${detection.family} failure detected but no target could be extracted`);
      return none('no extractable target', true);
    }
    const caller = { role: turn.role, agentId: turn.agentId, sessionId: turn.sessionId };
    const limit = a.authFailure.maxRecallsPerTarget;
    // With a session id the count lives in recall_events, shared by every process on the database; without
    // one, this process counts (a caller with no session is one session per process).
    const local = turn.sessionId === null;
    const limited = (): AuthRecallOutcome => none(`recall limit reached for ${target.target} in this session`, true, target.target);
    if (local ? !this.counters.allows(target.target, limit) : !this.svc.authHintAllowed(caller, target.target, limit)) return limited();
    const found = await this.svc.credentialRecall({ target: target.target, aliases: target.aliases, query: searchQuery(target), excerpt: failureExcerpt(segments, detection) }, caller, {
      includeVault: a.authFailure.includeVaultHints,
      vectorDeadlineMs: this.options.vectorDeadlineMs ?? 30,
      limitPerSession: local ? 0 : limit,
    });
    if (found.limited) return limited();
    if (found.hits.length === 0) {
      this.log(`auth-recall: no credential facts found for ${target.target}`);
      return none(`no credential facts found for ${target.target}`, true, target.target);
    }
    if (local) this.counters.count(target.target);
    const items: HintItem[] = found.hits.map((h) => (h.vault ? { kind: 'vault', service: h.vault.service, type: h.vault.type } : { kind: 'fact', text: redactSecrets(h.fact.text) }));
    this.log(`auth-recall: ${found.hits.length} credential hint(s) for ${target.target}`);
    return { detected: true, target: target.target, factIds: found.hits.map((h) => h.fact.id), hint: formatHint(target.target, items), reason: null };
  }

  /** Start the recall worker ahead of the first failing turn. */
  warm(): Promise<void> {
    return this.recall.warm();
  }

  close(): Promise<void> {
    return this.recall.close();
  }
}
