/**
 * MemoryService: the one entry point for agent tools, CLI, GraphQL and plugins. Owns the writer
 * connection, the event bus and the vault key. Every call takes a Caller (validated here) and every
 * input is validated before anything is written.
 */
import type { Database } from 'better-sqlite3';
import { MemoryError } from '../core/errors.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { MemoryEvent } from '../core/events.js';
import type { FactId, RecallEventId } from '../core/ids.js';
import { OPERATOR, type Caller, type Category, type ConflictStatus, type Fact, type FactSource, type Scope } from '../core/types.js';
import { recordCleanClose } from '../store/clean-close.js';
import { openDatabase } from '../store/db.js';
import type { FactFilter } from '../store/facts.js';
import { loadVaultKey, type VaultKey } from '../store/vault-key.js';
import type { Subscription } from './bus.js';
import { resolveConflict } from './conflicts.js';
import { createCtx, type Ctx } from './context.js';
import { parseCaller, type EditInput, type LinkInput, type RecallInput, type StoreInput, type VaultPutInput } from './inputs.js';
import { deleteFact, setPinned } from './lifecycle.js';
import { changeLinkType, cutLink, memoryLink } from './links.js';
import { runMaintenance, type MaintenanceReport } from './maintenance.js';
import { factHistory, factsAsOf, getFact, listConflicts, listEpisodes, listFacts, listLinks, recallEvent, recallHistory, stats } from './reads.js';
import { memoryRecall, recordRecall, type RecallHit } from './recall.js';
import { captureConversation, findFacts, type CaptureBy, type CaptureDecision } from './capture.js';
import type { CaptureTurn } from '../core/capture.js';
import { orphans, readGraph, readNeighbors, staleFacts, weakLinks, type GraphFilter } from './graph.js';
import { credentialRecall, underLimit, type CredentialQuery } from './credentials.js';
import { Semantic, type Embedder, type VectorIndex } from './semantic.js';
import { semanticMap } from './semantic-map.js';
import { suggestLinks, type SuggestLinksOptions } from './suggest.js';
import type { EmbedderInfo } from '../actors/embed/contract.js';
import type { VectorInitResult } from '../actors/vector/contract.js';
import { exportData, importData, type ExportOptions, type ImportOptions } from './transfer.js';
import { credentialGet, vaultList, vaultPut, vaultRemove } from './vault.js';
import { editFact, storeFact, storeFacts } from './write.js';
import { deleteWithHooks, editWithHooks, recallWithHooks, storeWithHooks, vetEdit } from './hooked.js';
import type { ServicePlugins } from './plugin-hooks.js';
import { emitPluginEvent } from './plugin-events.js';
import { vectorSearch } from './vector-search.js';

export interface MemoryServiceOptions {
  readonly config: ResolvedConfig;
  /** Clock (tests move time to check decay, expiry and as-of reads). */
  readonly now?: () => number;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How often the bus polls the event log for other processes' changes. */
  readonly pollMs?: number;
  readonly onError?: (err: unknown) => void;
}

export class MemoryService {
  readonly config: ResolvedConfig;
  private readonly ctx: Ctx;
  private closed = false;
  /** The database file, recorded as cleanly closed when this was its last connection (src/store/clean-close.ts). */
  private readonly dbPath: string;
  private semantic: Semantic | null = null;
  private pluginRuntime: ServicePlugins | null = null;

  private constructor(db: Database, options: MemoryServiceOptions) {
    this.config = options.config;
    let key: VaultKey | null = null;
    const vaultKey = (): VaultKey => (key ??= loadVaultKey(options.config.vaultKeyFile, options.env ?? process.env));
    this.ctx = createCtx(db, { now: options.now, vaultKey, pollMs: options.pollMs, onError: options.onError });
    this.dbPath = options.config.dbPath;
  }

  /** Open (creating and migrating as needed) the database named by the config. */
  static open(options: MemoryServiceOptions): MemoryService {
    const db = openDatabase(options.config.dbPath, { durability: options.config.store.durability, busyTimeoutMs: options.config.store.busyTimeoutMs });
    return new MemoryService(db, options);
  }

  /**
   * The caller, validated, once the deferred writes (memory_recall's records) are committed: every read and
   * write goes through here, so it sees every recall already answered. Recall and search read without it.
   */
  private settled(caller: Caller): Caller {
    this.ctx.deferred.flush();
    return parseCaller(caller);
  }

  /** The clock now, once the deferred writes are committed: what a reader on another connection should see as of. */
  settledNow(): number {
    this.ctx.deferred.flush();
    return this.ctx.now();
  }

  /** The event log's last seq once the deferred writes are committed: any change to memory moves it (answer caches key on it). */
  changeMark(): number {
    this.ctx.deferred.flush();
    return this.ctx.events.lastSeq();
  }

  /** The service's clock (epoch ms); tests move it. */
  now(): number {
    return this.ctx.now();
  }

  /** The writer connection, with the deferred writes committed (what a direct read expects to see). */
  get db(): Database {
    this.ctx.deferred.flush();
    return this.ctx.db;
  }

  // Agent tools
  memoryStore(input: StoreInput, caller: Caller = OPERATOR, source: FactSource = 'tool') {
    return storeFact(this.ctx, input, this.settled(caller), source);
  }
  /** Many facts in one transaction, all or nothing. */
  memoryStoreMany(inputs: readonly StoreInput[], caller: Caller = OPERATOR, source: FactSource = 'tool') {
    return storeFacts(this.ctx, inputs, this.settled(caller), source);
  }
  memoryLink(input: LinkInput, caller: Caller = OPERATOR) {
    return memoryLink(this.ctx, input, this.settled(caller));
  }
  /** Hybrid recall (full text + vectors when the semantic layer runs; full text only otherwise). */
  memoryRecall(input: RecallInput, caller: Caller = OPERATOR) {
    const c = parseCaller(caller);
    const options = { ...this.config.search, semantic: this.semantic };
    if (this.pluginRuntime) return recallWithHooks(this.ctx, this.pluginRuntime, input, c, options, 'recall');
    return memoryRecall(this.ctx, input, c, options);
  }
  /**
   * Hybrid search that is not a recall (the dashboard's search box): nothing is logged or strengthened.
   * `plugins: false` skips the plugins' search hooks (what a plugin itself searches with);
   * `vectorDeadlineMs` replaces search.vectorDeadlineMs (0: full text alone, no query embedding).
   */
  search(input: RecallInput, caller: Caller = OPERATOR, options: { plugins?: boolean; vectorDeadlineMs?: number } = {}) {
    const c = parseCaller(caller);
    // A deadline of 0: full text alone, with no query embedding started.
    const semantic = options.vectorDeadlineMs === 0 ? null : this.semantic;
    const o = { ...this.config.search, semantic, vectorDeadlineMs: options.vectorDeadlineMs ?? this.config.search.vectorDeadlineMs, record: false };
    if (this.pluginRuntime && options.plugins !== false) return recallWithHooks(this.ctx, this.pluginRuntime, input, c, o, 'search');
    return memoryRecall(this.ctx, input, c, o);
  }
  /** Facts nearest in meaning to `query` (the vector leg alone); needs the semantic layer. */
  vectorSearch(query: string, caller: Caller = OPERATOR, limit = 10) {
    return vectorSearch(this.ctx, this.semantic, query, parseCaller(caller), limit, this.config.search.vectorDeadlineMs);
  }
  /** Credential facts about a failing target, for the auth-failure hook (session-scoped never included). */
  credentialRecall(q: CredentialQuery, caller: Caller, options: { includeVault: boolean; limit?: number; vectorDeadlineMs: number; limitPerSession?: number }) {
    return credentialRecall(this.ctx, q, this.settled(caller), { semantic: this.semantic, includeVault: options.includeVault, limit: options.limit ?? 5, vectorDeadlineMs: options.vectorDeadlineMs, limitPerSession: options.limitPerSession ?? 0 });
  }
  /** Whether the caller's session may still get an auth-failure hint for `target` (maxRecallsPerTarget, from recall_events). */
  authHintAllowed(caller: Caller, target: string, limit: number): boolean {
    return underLimit(this.ctx, this.settled(caller), target, limit);
  }
  /** The facts already injected into the caller's session by the relevant-memories hook (none without a session). */
  injectedInSession(caller: Caller): Set<string> {
    const c = this.settled(caller);
    return c.sessionId ? this.ctx.recalls.relevantFactIds(c.sessionId) : new Set();
  }
  /** Record an injection of relevant memories: a recall event of kind 'relevant' (written after the turn goes on). */
  recordRelevant(query: string, hits: readonly RecallHit[], caller: Caller): RecallEventId {
    return recordRecall(this.ctx, parseCaller(caller), { kind: 'relevant', query }, hits, this.ctx.now(), 'later');
  }
  credentialGet(input: { service: string }, caller: Caller = OPERATOR) {
    return credentialGet(this.ctx, input, this.settled(caller));
  }

  /**
   * Auto-capture: the facts worth keeping from a conversation's user turns (config autoCapture), stored,
   * strengthened when memory already has them, or replacing the fact a correction corrects; one transaction.
   * The sentence classifier decides when the semantic layer runs its model, the rules alone otherwise
   * (`by`, and `reason` says why). `dryRun` decides and writes nothing.
   */
  async capture(turns: readonly CaptureTurn[], caller: Caller = OPERATOR, options: { dryRun?: boolean } = {}): Promise<{ decisions: CaptureDecision[]; by: CaptureBy; reason: string | null }> {
    const a = this.config.autoCapture;
    const o = { maxChars: a.maxChars, classifier: a.classifier, minConfidence: a.minConfidence, categories: a.categories as readonly Category[] | null, scope: a.scope, dryRun: options.dryRun === true };
    const { found, by, reason } = await findFacts(this.semantic, turns, o);
    return { decisions: captureConversation(this.ctx, found, this.settled(caller), o), by, reason };
  }

  // Curation
  editFact(input: EditInput, caller: Caller = OPERATOR, source: FactSource = 'cli') {
    return editFact(this.ctx, input, this.settled(caller), source);
  }
  deleteFact(id: string, caller: Caller = OPERATOR) {
    return deleteFact(this.ctx, id, this.settled(caller));
  }

  // Through the plugin hooks (src/plugins): what the CLI, GraphQL and agent tools call. With no plugin
  // attached each is the plain operation above, answered in a resolved promise.
  /** memory_store with beforeFactStore (may change or refuse the fact) and afterFactStore. */
  storeWithHooks(input: StoreInput, caller: Caller = OPERATOR, source: FactSource = 'tool') {
    if (!this.pluginRuntime) return Promise.resolve(this.memoryStore(input, caller, source));
    return storeWithHooks(this.ctx, this.pluginRuntime, input, this.settled(caller), source);
  }
  /** editFact with beforeFactStore (operation 'edit') and afterFactStore. */
  editWithHooks(input: EditInput, caller: Caller = OPERATOR, source: FactSource = 'cli') {
    if (!this.pluginRuntime) return Promise.resolve(this.editFact(input, caller, source));
    return editWithHooks(this.ctx, this.pluginRuntime, input, this.settled(caller), source);
  }
  /**
   * beforeFactStore alone on an edit: the edit to write as the plugins left it, or their veto; writes
   * nothing. For a caller that writes the edit inside its own transaction (collaboration's accept), then
   * reports it with `afterEdit`.
   */
  vetEdit(input: EditInput, caller: Caller = OPERATOR, source: FactSource = 'cli'): Promise<EditInput> {
    if (!this.pluginRuntime) return Promise.resolve(input);
    return vetEdit(this.ctx, this.pluginRuntime, input, this.settled(caller), source);
  }
  /** afterFactStore for an edit written after `vetEdit` (nothing without plugins). */
  async afterEdit(fact: Fact, caller: Caller = OPERATOR, source: FactSource = 'cli'): Promise<void> {
    if (this.pluginRuntime?.has('afterFactStore')) await this.pluginRuntime.afterFactStore(fact, { operation: 'edit', source, caller: this.settled(caller) });
  }
  /** deleteFact with beforeFactDelete (false vetoes) and afterFactDelete. */
  deleteWithHooks(id: string, caller: Caller = OPERATOR) {
    if (!this.pluginRuntime) return Promise.resolve(this.deleteFact(id, caller));
    return deleteWithHooks(this.ctx, this.pluginRuntime, id, this.settled(caller));
  }

  pin(id: string, caller: Caller = OPERATOR) {
    return setPinned(this.ctx, id, true, this.settled(caller));
  }
  unpin(id: string, caller: Caller = OPERATOR) {
    return setPinned(this.ctx, id, false, this.settled(caller));
  }
  changeLinkType(input: { id: string; linkType: string }, caller: Caller = OPERATOR) {
    return changeLinkType(this.ctx, input, this.settled(caller));
  }
  cutLink(id: string, caller: Caller = OPERATOR) {
    return cutLink(this.ctx, id, this.settled(caller));
  }
  resolveConflict(input: { id: string; resolution: string }, caller: Caller = OPERATOR) {
    return resolveConflict(this.ctx, input, this.settled(caller));
  }

  // Vault
  vaultPut(input: VaultPutInput, caller: Caller = OPERATOR) {
    return vaultPut(this.ctx, input, this.settled(caller));
  }
  vaultList(caller: Caller = OPERATOR) {
    return vaultList(this.ctx, this.settled(caller));
  }
  vaultRemove(input: { service: string; scope?: Scope['kind']; scopeAgentId?: string; scopeSessionId?: string }, caller: Caller = OPERATOR) {
    return vaultRemove(this.ctx, input, this.settled(caller));
  }

  // Reads
  getFact(id: string, caller: Caller = OPERATOR) {
    return getFact(this.ctx, id, this.settled(caller));
  }
  history(id: string, caller: Caller = OPERATOR) {
    return factHistory(this.ctx, id, this.settled(caller));
  }
  listFacts(filter: FactFilter = {}, caller: Caller = OPERATOR) {
    return listFacts(this.ctx, filter, this.settled(caller));
  }
  factsAsOf(t: number, caller: Caller = OPERATOR, filter: { category?: Category; entity?: string; limit?: number } = {}) {
    return factsAsOf(this.ctx, t, this.settled(caller), filter);
  }
  listLinks(caller: Caller = OPERATOR, options: { factId?: FactId; limit?: number } = {}) {
    return listLinks(this.ctx, this.settled(caller), options);
  }
  /** Unlinked pairs of visible facts with near-identical meaning (needs the semantic layer); see suggest.ts. */
  suggestLinks(caller: Caller = OPERATOR, options: SuggestLinksOptions = {}) {
    return suggestLinks(this.ctx, this.semantic, this.settled(caller), options);
  }
  /** Visible facts as nodes (strength now, cluster) and the links among them. */
  graph(filter: GraphFilter = {}, caller: Caller = OPERATOR) {
    return readGraph(this.ctx, filter, this.settled(caller));
  }
  /** The graph's nodes only: facts with their strength now, same filter. */
  graphNodes(filter: GraphFilter = {}, caller: Caller = OPERATOR) {
    return readGraph(this.ctx, filter, this.settled(caller), false).nodes;
  }
  /** The graph's facts placed by meaning (a 2-D projection of their embeddings), same filter. */
  semanticMap(filter: GraphFilter = {}, caller: Caller = OPERATOR) {
    return semanticMap(this.ctx, filter, this.settled(caller));
  }
  /** A fact with its visible neighbours and the links to them. */
  neighbors(id: string, caller: Caller = OPERATOR, limit?: number) {
    return readNeighbors(this.ctx, id, this.settled(caller), limit);
  }
  orphans(caller: Caller = OPERATOR, limit?: number) {
    return orphans(this.ctx, this.settled(caller), limit);
  }
  weakLinks(caller: Caller = OPERATOR, limit?: number) {
    return weakLinks(this.ctx, this.settled(caller), limit);
  }
  staleFacts(caller: Caller = OPERATOR, limit?: number) {
    return staleFacts(this.ctx, this.settled(caller), limit);
  }
  listConflicts(caller: Caller = OPERATOR, status?: ConflictStatus) {
    return listConflicts(this.ctx, this.settled(caller), status);
  }
  listEpisodes(caller: Caller = OPERATOR, limit?: number) {
    return listEpisodes(this.ctx, this.settled(caller), limit);
  }
  /** One recall the caller owns, with each fact's ranks and scores (null: missing or someone else's). */
  recallEvent(id: string, caller: Caller = OPERATOR) {
    return recallEvent(this.ctx, this.settled(caller), id);
  }
  recallHistory(caller: Caller = OPERATOR, options: { limit?: number; since?: number } = {}) {
    return recallHistory(this.ctx, this.settled(caller), options);
  }
  stats(caller: Caller = OPERATOR) {
    return stats(this.ctx, this.settled(caller));
  }

  // Transfer (the format is documented in docs/cli.md, "Export format")
  exportData(options: ExportOptions = {}, caller: Caller = OPERATOR) {
    return exportData(this.ctx, options, this.settled(caller));
  }
  /** Operator only: imported facts keep the scopes they were exported with. All or nothing per file. */
  importData(doc: unknown, options: ImportOptions = {}) {
    return importData(this.ctx, doc, options);
  }

  // Events
  /** Live events filtered for `caller`; pass the last seq seen to resume. */
  /**
   * The caller's most recent events from the log (what the graph app's feed opens with), oldest first: at
   * most `limit` (1..200), looking back at most 5,000 events (others' private changes are skipped, not counted).
   */
  recentActivity(caller: Caller = OPERATOR, limit = 50): MemoryEvent[] {
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new MemoryError('MEM_ERR_INVALID_INPUT', `activity.limit: expected an integer in 1..200, received ${limit}`);
    return this.ctx.bus.recent(this.settled(caller), limit);
  }

  subscribe(caller: Caller, listener: (e: MemoryEvent) => void, fromSeq?: number): Subscription {
    return this.ctx.bus.subscribe(this.settled(caller), listener, fromSeq);
  }

  /** A plugin's own event, delivered to subscribers as kind 'plugin' (what context.emit in a plugin calls). */
  emitPluginEvent(pluginId: string, event: string, data: unknown): void {
    emitPluginEvent(this.ctx, pluginId, event, data);
  }

  /** The plugins attached to this service (src/plugins), or null: then no hook runs and nothing costs. */
  get plugins(): ServicePlugins | null {
    return this.pluginRuntime;
  }

  /** Attach the plugin runtime: the *WithHooks operations, recall and search run its hooks from now on. */
  attachPlugins(plugins: ServicePlugins): void {
    if (this.closed) throw new MemoryError('MEM_ERR_ACTOR_CLOSED', 'the service is closed');
    if (this.pluginRuntime && this.pluginRuntime !== plugins) throw new MemoryError('MEM_ERR_INTERNAL', 'plugins are already attached');
    this.pluginRuntime = plugins;
  }

  /** The running semantic layer, if any (see src/main.ts, which wires the embedding and vector actors). */
  get semanticLayer(): Semantic | null {
    return this.semantic;
  }

  /** Attach the embedding and vector actors: facts get embedded, and recall becomes hybrid. */
  attachSemantic(
    parts: { embedder: Embedder; index: VectorIndex; info: EmbedderInfo; indexState: VectorInitResult; log?: (msg: string) => void },
    options: { maintain?: boolean } = {},
  ): Semantic {
    if (this.semantic) return this.semantic;
    const semantic = new Semantic(this.ctx, parts.embedder, parts.index, parts.info, parts.indexState, parts.log);
    this.semantic = semantic;
    semantic.start(options);
    return semantic;
  }

  runMaintenance(): MaintenanceReport {
    const s = this.config.store;
    return runMaintenance(this.ctx, { eventRetentionDays: s.eventRetentionDays, deletedRetentionDays: s.deletedRetentionDays, recallRetentionDays: s.recallRetentionDays });
  }

  /**
   * Stop the plugins (their onShutdown hooks run first, while the store is still open), the semantic layer
   * (persisting the index), the bus, and the database connection.
   */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    const semantic = this.semantic;
    const plugins = this.pluginRuntime;
    this.semantic = null;
    const teardown = (): void => {
      this.ctx.deferred.close();
      this.ctx.bus.close();
      this.ctx.db.close();
      if (this.dbPath !== ':memory:') recordCleanClose(this.dbPath);
    };
    // Without workers the connection closes synchronously, before close() returns.
    if (!semantic && !plugins) return Promise.resolve(teardown());
    const stopPlugins = plugins ? plugins.close().catch(() => undefined) : Promise.resolve();
    return stopPlugins
      .then(() => {
        this.pluginRuntime = null;
        return semantic?.close();
      })
      .finally(teardown);
  }
}
