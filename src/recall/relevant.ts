/**
 * The relevant-memories hook (autoRecall.relevant): on every turn, the prompt (else the last user message)
 * is the query of a hybrid recall in the caller's scope, with a short vector deadline (a query embedding
 * not ready in time leaves the answer to full text, as the auth hook does); memories scoring at least
 * minScore, covering minCoverage of the prompt's content words or minSimilarity close in meaning (absolute
 * tests: recall's score is relative to the best match, so without them every prompt would get its best
 * matches, however poor), that this session has not been given yet (an edited memory has a new id, so it comes again) go
 * into one block, in score order, until the token cap. Each injection is a recall event of kind
 * 'relevant' with its per-fact scores. Trivial or short prompts get nothing. The hook never throws into
 * the gateway: a failure means no block and a log line.
 */
import type { ResolvedConfig } from '../config/resolve.js';
import { contentStems, coverage, formatBlock, isTrivialPrompt, turnQuery } from '../core/relevant-block.js';
import { MemoryError, toWire } from '../core/errors.js';
import type { FactId, RecallEventId } from '../core/ids.js';
import type { MemoryService } from '../memory/service.js';
import { turnSchema, turnSegments, type Turn } from './turn.js';

export interface RelevantOutcome {
  /** The block to prepend, or null. */
  readonly block: string | null;
  readonly factIds: readonly FactId[];
  readonly recallId: RecallEventId | null;
  /** Why no block was given, when none was. */
  readonly reason: string | null;
  /** True when the vector leg missed its deadline (the memories came from full text alone). */
  readonly degraded: boolean;
}

const none = (reason: string): RelevantOutcome => ({ block: null, factIds: [], recallId: null, reason, degraded: false });

/** Sessions without an id: the facts this process has injected (one session per process, as the auth counters). */
const MAX_LOCAL_IDS = 10_000;

export class RelevantRecallHook {
  private readonly local = new Set<string>();
  private readonly log: (line: string) => void;

  constructor(
    private readonly svc: MemoryService,
    private readonly config: ResolvedConfig,
    options: { log?: (line: string) => void } = {},
  ) {
    this.log = options.log ?? (() => undefined);
  }

  /** The gateway entry: the block to prepend, or null. Never throws. */
  async onTurn(turn: Turn): Promise<string | null> {
    try {
      return (await this.evaluate(turn)).block;
    } catch (err) {
      const w = toWire(err);
      this.log(`relevant-memories: none this turn (${w.code}: ${w.message})`);
      return null;
    }
  }

  /** The whole decision, for tests and the CLI. Throws only on invalid input. */
  async evaluate(input: Turn): Promise<RelevantOutcome> {
    const a = this.config.autoRecall;
    const o = a.relevant;
    if (!a.enabled || !o.enabled) return none('relevant-memory recall disabled');
    const turn = turnSchema.parse(input);
    const lastUser = [...turnSegments({ prompt: '', messages: turn.messages })].reverse().find((s) => s.role === 'user')?.text ?? null;
    const query = turnQuery(turn.prompt, lastUser);
    if (isTrivialPrompt(query, o.minPromptChars)) return none('trivial or short prompt');
    const caller = { role: turn.role, agentId: turn.agentId, sessionId: turn.sessionId };
    let found;
    try {
      // A few more than the limit: some may have been given to this session already.
      found = await this.svc.search({ query, limit: Math.min(50, o.limit * 3) }, caller, { vectorDeadlineMs: o.vectorDeadlineMs });
    } catch (err) {
      if (err instanceof MemoryError && err.code === 'MEM_ERR_QUERY_EMPTY') return none('no searchable words in the prompt');
      throw err;
    }
    const given = turn.sessionId ? this.svc.injectedInSession(caller) : this.local;
    const stems = contentStems(query);
    const relevant = (h: (typeof found.results)[number]): boolean =>
      h.score >= o.minScore && (coverage(stems, h.fact) >= o.minCoverage || (h.why.similarity ?? -1) >= o.minSimilarity);
    const fresh = found.results.filter((h) => relevant(h) && !given.has(h.fact.id)).slice(0, o.limit);
    if (fresh.length === 0) return { ...none(found.results.length ? 'no new memory relevant enough' : 'no memory matches'), degraded: found.degraded };
    const block = formatBlock(
      fresh.map((h) => h.fact),
      o,
    );
    if (!block) return { ...none('maxTokens leaves no room for a memory'), degraded: found.degraded };
    const used = fresh.slice(0, block.used);
    const recallId = this.svc.recordRelevant(query, used, caller);
    if (!turn.sessionId) {
      if (this.local.size > MAX_LOCAL_IDS) this.local.clear();
      for (const h of used) this.local.add(h.fact.id);
    }
    this.log(`relevant-memories: ${used.length} memor${used.length === 1 ? 'y' : 'ies'} injected${found.degraded ? ' (full text only: the query embedding was late)' : ''}`);
    return { block: block.text, factIds: used.map((h) => h.fact.id), recallId, reason: null, degraded: found.degraded };
  }
}
