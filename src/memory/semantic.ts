/**
 * The semantic side of memory: keeps fact vectors and the vector index in step with the store, and
 * answers the vector leg of hybrid search under a deadline.
 *
 * - Facts are embedded after their write commits (background embedding pool), so a fact is searchable by
 *   full text at once and semantically when its vector lands. Vectors go to `fact_vectors` (the truth)
 *   and then to the index (derived data).
 * - Changes are picked up from the event bus, so facts written by other processes (the CLI, a gateway)
 *   are embedded by whichever process runs the semantic layer; at start, facts missing a vector for the
 *   current model are backfilled.
 * - The provider's model id and dimension are recorded in `meta`; a changed provider re-embeds everything
 *   in the background (`reindex` shows progress), then drops the old vectors.
 */
import type { EmbedderInfo } from '../actors/embed/contract.js';
import type { VectorFilter, VectorHit, VectorInitResult, VectorPair } from '../actors/vector/contract.js';
import { continuesTurn, factVectors, isDialogueTurn, TURN_CONTEXT_VERSION } from '../core/embed-text.js';
import { MemoryError } from '../core/errors.js';
import type { MemoryEvent } from '../core/events.js';
import { searchQuery } from '../core/auth/hint.js';
import { isCredentialFact, namedHosts } from '../core/auth/named-hosts.js';
import { visibility } from '../core/scope.js';
import { OPERATOR, type Fact, type Progress } from '../core/types.js';

export type { Progress };
import { VectorRepo } from '../store/vectors.js';
import type { Subscription } from './bus.js';
import type { Ctx } from './context.js';

/** What the semantic layer needs from the embedding actor. */
export interface Embedder {
  info(): Promise<EmbedderInfo>;
  embedQuery(text: string): Promise<Float32Array>;
  /** A cached query embedding, synchronously (null when not cached). */
  cachedQuery?(text: string): Float32Array | null;
  /** Compute and cache query embeddings ahead of need (background). */
  prewarm?(texts: readonly string[]): Promise<number>;
  embedMany(texts: readonly string[], options?: { background?: boolean }): Promise<Float32Array[]>;
  /** Batches embedMany runs at once in the background (default 1). */
  readonly backgroundLanes?: number;
  close(): Promise<void>;
}

/** What the semantic layer needs from the vector actor. */
export interface VectorIndex {
  upsert(keys: readonly number[], vectors: Float32Array): Promise<number>;
  remove(keys: readonly number[]): Promise<number>;
  search(query: Float32Array, k: number, filter: VectorFilter): Promise<VectorHit[]>;
  /** The pairwise scan behind suggested links (VectorClient has it). */
  suggestPairs?(filter: VectorFilter, threshold: number, limit: number): Promise<VectorPair[]>;
  close(): Promise<void>;
}

export interface VectorLeg {
  /** null when the leg missed its deadline or failed: the answer is then full text only ("degraded"). */
  readonly hits: readonly VectorHit[] | null;
  readonly reason: string | null;
}


const BATCH = 32;

export class Semantic {
  private readonly vectors: VectorRepo;
  private readonly queue = new Set<number>();
  /** Queued facts that have a vector and are embedded again (turn context): not missing, so not lagging. */
  private readonly refreshing = new Set<number>();
  private pumping: Promise<void> | null = null;
  private sub: Subscription | null = null;
  private closed = false;
  private lastError: string | null = null;
  /** Maintaining (start() without maintain: false): every missing fact is in `queue`. */
  private maintaining = false;
  /** A one-shot layer: facts missing a vector when it started, less those embedded since. */
  private oneShotMissing = 0;
  /** Embedding batches that failed (their facts stay missing until the next backfill). */
  private embedFailures = 0;

  constructor(
    private readonly ctx: Ctx,
    private readonly embed: Embedder,
    private readonly index: VectorIndex,
    readonly info: EmbedderInfo,
    readonly indexState: VectorInitResult,
    private readonly log: (msg: string) => void = () => undefined,
  ) {
    this.vectors = new VectorRepo(ctx.db);
  }

  /**
   * Record the model, listen for changes, and queue every fact still missing a vector. With
   * `maintain: false` (a one-shot CLI search) only searching is set up.
   */
  start(options: { maintain?: boolean } = {}): void {
    if (options.maintain === false) {
      this.oneShotMissing = this.vectors.countMissing(this.info.modelId);
      return;
    }
    this.maintaining = true;
    const previous = this.vectors.getMeta('embedding.modelId');
    if (previous !== this.info.modelId) {
      this.ctx.tx('embedding.meta', () => {
        this.vectors.setMeta('embedding.modelId', this.info.modelId);
        this.vectors.setMeta('embedding.dim', String(this.info.dim));
      });
      if (previous) this.log(`embedding model changed from ${previous} to ${this.info.modelId}: re-embedding in the background`);
    }
    this.sub = this.ctx.bus.subscribe(OPERATOR, (e) => this.onEvent(e));
    this.backfill();
    this.reembedTurnsOnce();
    this.prewarmCredentialQueries(this.ctx.facts.list(visibility(OPERATOR), { limit: 1000 }).filter(isCredentialFact));
  }

  /**
   * The auth-failure hook searches "<target> credential password token key auth": embed that query for
   * every host a credential fact names, in the background, so a failing turn finds it cached.
   */
  private prewarmCredentialQueries(facts: readonly Fact[]): void {
    if (!this.embed.prewarm || facts.length === 0) return;
    const queries = facts.flatMap((f) => namedHosts(`${f.entity ?? ''} ${f.text}`).map((h) => searchQuery({ target: h, kind: 'host', aliases: [] })));
    if (queries.length > 0) this.embed.prewarm(queries).catch((err: unknown) => this.fail('prewarm', err));
  }

  /** Facts without a vector for the current model (the queue holds exactly those while maintaining). */
  pending(): number {
    return this.maintaining ? this.queue.size - this.refreshing.size : this.vectors.countMissing(this.info.modelId);
  }

  /**
   * How many current facts the vector leg cannot find yet, cheaply (no query on the answer path): the
   * maintainer's queue, or a one-shot layer's count at start less what it embedded since.
   */
  lagging(): number {
    return this.maintaining ? this.queue.size - this.refreshing.size : this.oneShotMissing;
  }

  /**
   * Embed the facts still missing a vector and wait for them (a one-shot CLI recall or store), reporting
   * progress. Unlike reindex, vectors of other models stay.
   */
  async embedMissing(onProgress?: (p: Progress) => void): Promise<Progress> {
    const failures = this.embedFailures;
    this.backfill();
    const total = this.queue.size;
    try {
      await this.drained(failures, onProgress, total);
    } finally {
      if (!this.maintaining) this.oneShotMissing = this.vectors.countMissing(this.info.modelId);
    }
    const done = { done: total, total };
    onProgress?.(done);
    return done;
  }

  /** Embeddings of arbitrary texts (auto-capture's sentences), in order, on the foreground lane. */
  embedTexts(texts: readonly string[]): Promise<Float32Array[]> {
    return this.embed.embedMany(texts);
  }

  /** Embed these facts now and wait (the CLI's store: a fact is searchable by meaning when it returns). */
  async embedFacts(ids: readonly string[]): Promise<void> {
    const failures = this.embedFailures;
    for (const seq of this.ctx.facts.seqsOf(ids).values()) this.queue.add(seq);
    await this.drained(failures);
  }

  /** Pump until the queue is empty, reporting progress; throws if a batch failed since `failures` was read. */
  private async drained(failures: number, onProgress?: (p: Progress) => void, total = this.queue.size): Promise<void> {
    while ((this.queue.size > 0 || this.pumping) && this.embedFailures === failures) {
      onProgress?.({ done: total - this.queue.size, total });
      await (this.pumping ?? this.pump());
    }
    if (this.embedFailures !== failures) throw new MemoryError('MEM_ERR_EMBEDDING_MODEL', `embedding failed: ${this.lastError ?? 'unknown error'}`);
  }

  /** Queue every current fact that has no vector yet. */
  backfill(): void {
    for (let after = 0; ; ) {
      const batch = this.vectors.missing(this.info.modelId, after, 1000);
      if (batch.length === 0) break;
      for (const f of batch) this.queue.add(f.seq);
      after = batch[batch.length - 1]?.seq ?? after;
    }
    this.pump();
  }

  /** Embed everything missing, reporting progress; then, only if every batch succeeded, drop vectors of other models. */
  async reindex(onProgress?: (p: Progress) => void): Promise<Progress> {
    const done = await this.embedMissing(onProgress);
    this.ctx.tx('embedding.cleanup', () => this.vectors.deleteOtherModels(this.info.modelId));
    return done;
  }

  /** Whether the embedding of this query text is cached (answered without waiting on the model). */
  hasCachedQuery(text: string): boolean {
    return (this.embed.cachedQuery?.(text) ?? null) !== null;
  }

  /** Resolves when the queue is empty (tests, reindex). */
  async idle(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  /**
   * The vector leg only when the query's embedding is already cached (the auth-failure hook: a turn never
   * waits on the model). Otherwise the embedding is computed in the background for next time, and the
   * answer comes from full text.
   */
  searchIfCached(query: string, k: number, filter: VectorFilter, deadlineMs: number): Promise<VectorLeg> {
    if (this.hasCachedQuery(query)) return this.search(query, k, filter, deadlineMs);
    this.embed.prewarm?.([query]).catch((err: unknown) => this.fail('prewarm', err));
    return Promise.resolve({ hits: null, reason: 'query embedding not cached yet (computing in the background)' });
  }

  /** The vector leg: embed the query (cached) and search, or give up at the deadline. */
  async search(query: string, k: number, filter: VectorFilter, deadlineMs: number): Promise<VectorLeg> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<VectorLeg>((resolve) => {
      timer = setTimeout(() => resolve({ hits: null, reason: `vector leg missed its ${deadlineMs} ms deadline` }), deadlineMs);
    });
    // With a cached query embedding the search is posted to the vector worker right now, so it runs while
    // the caller does the full-text leg on this thread.
    const cached = this.embed.cachedQuery?.(query) ?? null;
    const hits = cached ? this.index.search(cached, k, filter) : this.embed.embedQuery(query).then((q) => this.index.search(q, k, filter));
    const work = hits.then(
      (h): VectorLeg => ({ hits: h, reason: null }),
      (err: unknown): VectorLeg => ({ hits: null, reason: `vector leg failed: ${(err as Error).message}` }),
    );
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Pairs of visible facts (seqs) with cosine >= threshold, best first: forwards to the vector index. */
  suggestPairs(filter: VectorFilter, threshold: number, limit: number): Promise<VectorPair[]> {
    if (!this.index.suggestPairs) return Promise.reject(new MemoryError('MEM_ERR_SEMANTIC_UNAVAILABLE', 'this vector index cannot scan pairs'));
    return this.index.suggestPairs(filter, threshold, limit);
  }

  private onEvent(e: MemoryEvent): void {
    if (this.closed) return;
    if (e.kind === 'fact.stored') {
      const seq = this.ctx.facts.seqsOf([e.fact.id]).get(e.fact.id);
      if (seq !== undefined) this.queue.add(seq);
      this.pump();
      const fact = this.ctx.facts.get(e.fact.id);
      if (fact && isCredentialFact(fact)) this.prewarmCredentialQueries([fact]);
    } else if (e.kind === 'fact.superseded' || e.kind === 'fact.deleted' || e.kind === 'fact.ended') {
      const id = e.kind === 'fact.superseded' ? e.oldId : e.factId;
      const seq = this.ctx.facts.seqsOf([id]).get(id);
      if (seq !== undefined) {
        this.queue.delete(seq);
        this.refreshing.delete(seq);
        this.index.remove([seq]).catch((err: unknown) => this.fail('remove', err));
        if (e.kind === 'fact.deleted') {
          this.reembedTurnAfter(seq);
          this.pump();
        }
      }
    }
  }

  private pump(): Promise<void> {
    if (!this.pumping && this.queue.size > 0 && !this.closed) {
      this.pumping = this.drain().finally(() => {
        this.pumping = null;
        if (this.queue.size > 0 && !this.closed && this.lastError === null) this.pump();
      });
    }
    return this.pumping ?? Promise.resolve();
  }

  /**
   * Embed the queue, one batch per background thread at a time so a backlog keeps every core busy, and
   * pipelined: the next chunk is being embedded while this one is written to SQLite and the index.
   */
  private async drain(): Promise<void> {
    const chunk = BATCH * Math.max(1, this.embed.backgroundLanes ?? 1);
    const taken = new Set<number>();
    const take = (): number[] => {
      const seqs: number[] = [];
      for (const s of this.queue) {
        if (seqs.length >= chunk) break;
        if (!taken.has(s)) seqs.push(s);
      }
      for (const s of seqs) taken.add(s);
      return seqs;
    };
    let seqs = take();
    let computing = seqs.length > 0 ? this.computeBatch(seqs) : null;
    while (computing && !this.closed) {
      const current = seqs;
      try {
        const computed = await computing;
        seqs = take();
        computing = seqs.length > 0 && !this.closed ? this.computeBatch(seqs) : null;
        await this.storeBatch(computed);
        this.lastError = null;
      } catch (err) {
        this.embedFailures++;
        this.fail('embed', err);
        // A chunk already in flight settles; its facts stay queued for the next pump.
        if (computing && seqs !== current) await computing.catch(() => undefined);
        return; // the failed chunk is retried by the next event or backfill
      } finally {
        for (const s of current) {
          this.queue.delete(s);
          this.refreshing.delete(s);
        }
      }
      if (!computing && this.queue.size > 0 && !this.closed) {
        seqs = take();
        computing = seqs.length > 0 ? this.computeBatch(seqs) : null;
      }
    }
  }

  private async computeBatch(seqs: readonly number[]): Promise<{ seqs: readonly number[]; facts: Fact[]; vecs: Float32Array[] }> {
    const facts = this.ctx.facts.bySeqs(this.vectors.current(seqs));
    if (facts.length === 0) return { seqs, facts, vecs: [] };
    const before = facts.map((f) => (isDialogueTurn(f.text) ? this.turnBefore(f) : null));
    return { seqs, facts, vecs: await factVectors(facts, before, (texts) => this.embed.embedMany(texts, { background: true })) };
  }

  /** The turn a dialogue turn answers: the fact stored just before it in its scope, when that is a turn of the same exchange. */
  private turnBefore(f: Fact & { readonly seq: number }): Fact | null {
    const before = this.ctx.facts.storedBeside(f, -1);
    return before && continuesTurn(f, before) ? before : null;
  }

  /**
   * A store whose dialogue turns were embedded before turns carried the turn they answer: embed its
   * current turns again, once, in the background (their old vectors serve until the new ones land).
   */
  private reembedTurnsOnce(): void {
    if (this.vectors.getMeta('embedding.turnContext') === TURN_CONTEXT_VERSION) return;
    const seqs = this.ctx.facts.turnCandidates().flatMap((f) => (isDialogueTurn(f.text) ? [f.seq] : []));
    for (const seq of seqs) this.refresh(seq);
    this.pump();
    this.ctx.tx('embedding.meta', () => this.vectors.setMeta('embedding.turnContext', TURN_CONTEXT_VERSION));
    if (seqs.length > 0) this.log(`embedding ${seqs.length} dialogue turns again, each with the turn it answers`);
  }

  /** A deleted fact leaves no trace in the turn embedded with it: that turn is embedded again without it. */
  private reembedTurnAfter(seq: number): void {
    const [deleted] = this.ctx.facts.bySeqs([seq]);
    const after = deleted ? this.ctx.facts.storedBeside(deleted, 1) : null;
    if (deleted && after && after.validUntil === null && continuesTurn(after, deleted)) this.refresh(after.seq);
  }

  /** Queue a fact to be embedded again; one not embedded yet is missing, not refreshing. */
  private refresh(seq: number): void {
    if (this.queue.has(seq)) return;
    this.queue.add(seq);
    this.refreshing.add(seq);
  }

  private async storeBatch({ seqs, facts, vecs }: { seqs: readonly number[]; facts: Fact[]; vecs: Float32Array[] }): Promise<void> {
    if (facts.length === 0) return;
    const now = this.ctx.now();
    // A fact edited or deleted while it was embedded is no longer current: its vector is not stored.
    const live = new Set(this.vectors.current(seqs));
    const keys: number[] = [];
    const flat = new Float32Array(vecs.length * this.info.dim);
    const seqOf = this.ctx.facts.seqsOf(facts.map((f) => f.id));
    this.ctx.tx('embedding.store', () => {
      facts.forEach((f, i) => {
        const seq = seqOf.get(f.id);
        const v = vecs[i];
        if (seq === undefined || !v || !live.has(seq)) return;
        this.vectors.put(seq, this.info.modelId, v, now);
        flat.set(v, keys.length * this.info.dim);
        keys.push(seq);
      });
    });
    if (keys.length > 0) await this.index.upsert(keys, flat.slice(0, keys.length * this.info.dim));
  }

  private fail(what: string, err: unknown): void {
    this.lastError = `${what}: ${(err as Error)?.message ?? String(err)}`;
    this.log(`semantic ${this.lastError}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.sub?.unsubscribe();
    await this.pumping?.catch(() => undefined);
    await Promise.allSettled([this.index.close(), this.embed.close()]);
  }
}
