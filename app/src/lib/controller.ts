/**
 * The app's behaviour, outside any component: loads the graph, applies live events to the view and the
 * feed, runs curation mutations (asking for the token when the server wants one), and reads the gaps.
 * Components render `ui` (a Qwik store, shaped in state.ts) and call these methods.
 */
import type { GraphView } from '../graph/view';
import * as D from './documents';
import { gql, GqlError, TokenError, tokenStore } from './gql';
import { connectLive } from './live';
import { feedLine } from './feed-text';
import { LayoutSwitch } from './layout';
import { asOfFromUrl, TimeTravel } from './time-travel';
import type { FactDetail, Gaps, UiState, WhyRecalled } from './state';
import type { Category, GEdge, GNode, GraphFilter, LinkType, MemoryEvent } from './types';

export { initialUi, type UiState } from './state';

const FEED_MAX = 200;
/** Facts read per graph load: the server's cap. Past CLUSTER_THRESHOLD the view clusters. */
const GRAPH_LIMIT = 20_000;
export class Controller {
  private live: { close: () => void } | null = null;
  private pending: (() => Promise<unknown>) | null = null;
  private searchTimer: ReturnType<typeof setTimeout> | null = null;
  /** The event log's last seq when the graph was last read. */
  private graphSeq: number | null = null;
  /** Time travel: the as-of slider and its player (time-travel.ts). */
  readonly time: TimeTravel;
  /** Links or meaning (layout.ts). */
  private readonly layouts: LayoutSwitch;

  constructor(
    readonly view: GraphView,
    private readonly ui: UiState,
  ) {
    this.time = new TimeTravel(ui, () => this.loadGraph({ fit: false }));
    this.layouts = new LayoutSwitch(ui, view, () => this.graphFilter(), (err) => this.note(err));
  }

  async start(): Promise<void> {
    try {
      const cfg = (await (await fetch(D.APP_CONFIG_PATH)).json()) as { tokenRequired?: boolean };
      this.ui.tokenRequired = cfg.tokenRequired === true;
    } catch {
      // config unavailable: mutations will tell
    }
    this.ui.asOf = asOfFromUrl(location.search);
    await this.loadGraph();
    await this.loadHistory();
    this.live = connectLive({
      onEvent: (e) => this.onEvent(e),
      onStatus: (s) => (this.ui.live = s),
      onReconnect: () => void this.loadGraph({ fit: false }),
      fromSeq: this.graphSeq,
    });
    void this.loadGaps();
  }

  stop(): void {
    this.live?.close();
    this.ui.playing = false;
    this.view.destroy();
  }


  /** Read the graph; `fit` (default): fit it into view as its layout spreads (not after a reconnect or a curation step). */
  async loadGraph(o: { fit?: boolean } = {}): Promise<void> {
    const filter = this.graphFilter();
    try {
      const r = await gql<{ graph: { truncated: boolean; nodes: GNode[]; edges: GEdge[] }; stats: { totalFacts: number; links: number; openConflicts: number; searchMode: string; lastEventSeq: number; firstFactAt: number | null } }>(D.GRAPH, { filter });
      this.graphSeq = r.stats.lastEventSeq;
      this.ui.historyFrom = r.stats.firstFactAt;
      this.ui.pastFacts = r.graph.nodes.length;
      this.view.setGraph(r.graph.nodes, r.graph.edges, o);
      Object.assign(this.ui, { truncated: r.graph.truncated, totalFacts: r.stats.totalFacts, links: r.stats.links, openConflicts: r.stats.openConflicts, searchMode: r.stats.searchMode });
      this.applySearchHighlight();
    } catch (err) {
      this.note(err);
    }
    if (this.ui.layout === 'meaning') await this.layouts.refresh();
  }

  /** Place facts by their links and strength, or by meaning (the semantic map of the same filter and time). */
  setLayout(layout: 'links' | 'meaning'): Promise<void> {
    return this.layouts.set(layout);
  }

  /** The graph read's filter: the sidebar's, the server's node cap, and the time shown. */
  private graphFilter(): Record<string, unknown> {
    const f = this.ui.filter;
    return {
      categories: f.categories.length > 0 ? f.categories : null,
      minStrength: f.minStrength > 0 ? f.minStrength : null,
      includeSuperseded: f.includeSuperseded,
      limit: GRAPH_LIMIT,
      ...(this.ui.asOf === null ? {} : { asOf: this.ui.asOf }),
    };
  }

  /** The feed on open: the recent changes (stored, recalled, edited, conflicts) from the event log, before the live ones. */
  async loadHistory(): Promise<void> {
    try {
      const r = await gql<{ activity: MemoryEvent[] }>(D.RECENT_ACTIVITY);
      const v = this.view;
      const lines = r.activity.map((e) => feedLine(e, (id) => v.nodes.get(id)?.label));
      // A live event may have arrived first: one line per event.
      const live = new Set(this.ui.feed.map((l) => l.key));
      this.ui.feed = [...lines.filter((l) => !live.has(l.key)), ...this.ui.feed].slice(-FEED_MAX);
    } catch (err) {
      this.note(err);
    }
  }

  /** Explain a recall (its feed line was clicked): the facts it returned, highlighted, with their ranks and scores. */
  async why(recallId: string): Promise<void> {
    try {
      const r = await gql<{ recall: (Omit<WhyRecalled, 'rows'> & { scores: Omit<WhyRecalled['rows'][number], 'label'>[] }) | null }>(D.RECALL_DETAIL, { id: recallId });
      if (!r.recall) return this.notice('That recall is no longer in the history.');
      const { scores, ...rest } = r.recall;
      this.ui.why = { ...rest, rows: scores.map((s) => ({ ...s, label: this.view.nodes.get(s.factId)?.label ?? s.factId })) };
      this.view.setHighlight(new Set(scores.map((s) => s.factId)));
    } catch (err) {
      this.note(err);
    }
  }

  closeWhy(): void {
    this.ui.why = null;
    this.applySearchHighlight();
  }

  async loadGaps(): Promise<void> {
    try {
      const g = await gql<Omit<Gaps, 'suggested' | 'suggestedNote'>>(D.GAPS);
      let suggested: Gaps['suggested'] = [];
      let suggestedNote = '';
      try {
        suggested = (await gql<{ suggestedLinks: Gaps['suggested'] }>(D.SUGGESTED_LINKS)).suggestedLinks;
      } catch (err) {
        suggestedNote = err instanceof GqlError && err.code === 'MEM_ERR_SEMANTIC_UNAVAILABLE' ? 'Suggestions need embeddings (semantic search is off).' : String((err as Error).message);
      }
      this.ui.gaps = { ...g, suggested, suggestedNote };
    } catch (err) {
      this.note(err);
    }
  }

  private onEvent(e: MemoryEvent): void {
    const v = this.view;
    // The first fact of an empty memory starts its history.
    if (e.kind === 'FACT_STORED' && this.ui.historyFrom === null) this.ui.historyFrom = e.at;
    // A past view stays as it was; the feed and the counts carry on.
    if (this.ui.asOf === null) this.applyToView(e);
    this.ui.feed = [...this.ui.feed, feedLine(e, (id) => v.nodes.get(id)?.label)].slice(-FEED_MAX);
    if (e.kind.startsWith('FACT_')) this.ui.totalFacts = Math.max(0, this.ui.totalFacts + (e.kind === 'FACT_STORED' ? 1 : e.kind === 'FACT_DELETED' || e.kind === 'FACT_ENDED' ? -1 : 0));
    if (e.kind.startsWith('CONFLICT_') || e.kind === 'FACT_ENDED') void this.loadGaps();
    if (this.ui.selectedId && (e.factId === this.ui.selectedId || e.oldFactId === this.ui.selectedId || e.link?.source === this.ui.selectedId || e.link?.target === this.ui.selectedId)) {
      void this.inspect(e.kind === 'FACT_SUPERSEDED' && e.factId ? e.factId : this.ui.selectedId);
    }
  }

  /** A live event, drawn into the (present) graph. */
  private applyToView(e: MemoryEvent): void {
    const v = this.view;
    switch (e.kind) {
      case 'FACT_STORED':
        if (e.fact && this.passes(e.fact)) v.upsertNode(e.fact);
        break;
      case 'FACT_SUPERSEDED':
        if (e.oldFactId && this.ui.filter.includeSuperseded) v.patchNode(e.oldFactId, { superseded: true });
        else if (e.oldFactId) v.removeNode(e.oldFactId);
        void this.refetchNeighborhood(e.factId);
        break;
      case 'FACT_DELETED':
      case 'FACT_ENDED':
        if (e.factId) v.removeNode(e.factId);
        break;
      case 'FACT_UPDATED':
        if (e.factId && e.pinned !== null) v.patchNode(e.factId, { pinned: e.pinned });
        break;
      case 'LINK_CREATED':
      case 'LINK_STRENGTHENED':
      case 'LINK_UPDATED':
        if (e.link && v.nodes.has(e.link.source) && v.nodes.has(e.link.target)) v.upsertEdge(e.link);
        break;
      case 'LINK_DELETED':
        for (const id of e.linkIds ?? []) v.removeEdge(id);
        break;
      case 'RECALL':
        for (const s of e.recall?.scores ?? []) v.pulse(s.factId, s.score);
        break;
    }
  }

  private passes(n: GNode): boolean {
    const f = this.ui.filter;
    return (f.categories.length === 0 || f.categories.includes(n.category)) && n.strength >= f.minStrength;
  }

  /** After an edit: the new version and its links, without a full reload. */
  private async refetchNeighborhood(id: string | null): Promise<void> {
    if (!id) return;
    await this.expand(id);
  }

  /** Load a fact's neighbours into the view (expand without a full reload). */
  async expand(id: string): Promise<void> {
    try {
      const r = await gql<{ neighbors: { nodes: GNode[]; edges: GEdge[] } }>(D.NEIGHBORS, { id });
      for (const n of r.neighbors.nodes) this.view.upsertNode(n);
      for (const e of r.neighbors.edges) this.view.upsertEdge(e);
    } catch (err) {
      this.note(err);
    }
  }

  async inspect(id: string | null): Promise<void> {
    this.ui.selectedId = id;
    if (!id) {
      this.ui.detail = null;
      return;
    }
    try {
      const r = await gql<{ fact: FactDetail | null }>(D.FACT_DETAIL, { id });
      if (this.ui.selectedId === id) this.ui.detail = r.fact;
    } catch (err) {
      this.note(err);
    }
  }

  /** The search box: highlight local matches now, ask the server for the whole store after a pause. */
  search(text: string): void {
    this.ui.filter.search = text;
    this.applySearchHighlight();
    if (this.searchTimer) clearTimeout(this.searchTimer);
    if (text.trim().length < 2) {
      this.ui.searchHits = [];
      return;
    }
    this.searchTimer = setTimeout(() => {
      gql<{ search: { hits: { score: number; fact: GNode }[] } }>(D.SEARCH, { query: text }).then(
        (r) => {
          if (this.ui.filter.search !== text) return;
          this.ui.searchHits = r.search.hits.map((h) => ({ id: h.fact.id, label: h.fact.label, score: h.score }));
          const ids = new Set(r.search.hits.map((h) => h.fact.id));
          for (const id of this.localMatches(text)) ids.add(id);
          this.view.setHighlight(ids);
        },
        (err: unknown) => (err instanceof GqlError && err.code === 'MEM_ERR_QUERY_EMPTY' ? (this.ui.searchHits = []) : this.note(err)),
      );
    }, 250);
  }

  private localMatches(text: string): string[] {
    const q = text.trim().toLowerCase();
    if (q === '') return [];
    return [...this.view.nodes.values()].filter((n) => n.label.toLowerCase().includes(q) || (n.entity ?? '').toLowerCase().includes(q)).map((n) => n.id);
  }

  private applySearchHighlight(): void {
    const local = this.localMatches(this.ui.filter.search);
    this.view.setHighlight(this.ui.filter.search.trim() === '' ? null : new Set(local));
  }

  setFilter(patch: Partial<GraphFilter>): void {
    this.ui.filter = { ...this.ui.filter, ...patch };
    void this.loadGraph();
  }

  // Curation. Each runs through `mutate`, which asks for the token when the server wants one.
  createFact(input: { text: string; category: Category; entity?: string }) {
    return this.mutate(async () => {
      const r = await gql<{ createFact: GNode }>(D.CREATE_FACT, { input: { ...input, entity: input.entity || null } });
      this.view.upsertNode(r.createFact);
      this.ui.added++;
      this.notice('Fact added.');
    });
  }
  editText(id: string, text: string) {
    return this.mutate(async () => {
      const r = await gql<{ editFact: GNode }>(D.EDIT_FACT, { id, input: { text } });
      this.view.upsertNode(r.editFact);
      if (!this.ui.filter.includeSuperseded) this.view.removeNode(id);
      await this.expand(r.editFact.id);
      this.view.select(r.editFact.id);
      await this.inspect(r.editFact.id);
      this.notice('Saved as a new version.');
    });
  }
  deleteFact(id: string) {
    return this.mutate(async () => {
      await gql(D.DELETE_FACT, { id });
      this.view.removeNode(id);
      await this.inspect(null);
      this.notice('Fact deleted.');
    });
  }
  setPinned(id: string, pinned: boolean) {
    return this.mutate(async () => {
      const r = await gql<{ pinFact?: { pinned: boolean; strength: number }; unpinFact?: { pinned: boolean; strength: number } }>(pinned ? D.PIN_FACT : D.UNPIN_FACT, { id });
      const f = r.pinFact ?? r.unpinFact;
      if (f) this.view.patchNode(id, { pinned: f.pinned, strength: f.strength });
      await this.inspect(id);
    });
  }
  link(source: string, target: string, linkType: LinkType) {
    return this.mutate(async () => {
      const r = await gql<{ createLink: GEdge }>(D.CREATE_LINK, { source, target, linkType });
      this.view.upsertEdge(r.createLink);
      this.ui.linkFrom = null;
      this.ui.linkTarget = null;
      await this.inspect(source);
      this.notice(`Linked (${linkType}).`);
    });
  }
  changeLinkType(id: string, linkType: LinkType) {
    return this.mutate(async () => {
      const r = await gql<{ changeLinkType: GEdge }>(D.CHANGE_LINK_TYPE, { id, linkType });
      this.view.upsertEdge(r.changeLinkType);
      if (this.ui.selectedId) await this.inspect(this.ui.selectedId);
    });
  }
  cutLink(id: string) {
    return this.mutate(async () => {
      await gql(D.DELETE_LINK, { id });
      this.view.removeEdge(id);
      if (this.ui.selectedId) await this.inspect(this.ui.selectedId);
      void this.loadGaps();
    });
  }
  resolveConflict(id: string, resolution: 'keep_new' | 'keep_old' | 'both_fine') {
    return this.mutate(async () => {
      await gql(D.RESOLVE_CONFLICT, { id, resolution });
      await Promise.all([this.loadGraph({ fit: false }), this.loadGaps()]);
      this.notice('Conflict resolved.');
    });
  }
  acceptSuggestion(source: string, target: string) {
    return this.mutate(async () => {
      const r = await gql<{ acceptSuggestedLink: GEdge }>(D.ACCEPT_SUGGESTED, { source, target });
      this.view.upsertEdge(r.acceptSuggestedLink);
      await this.loadGaps();
    });
  }

  /** The token dialog submitted a token: keep it and retry what was refused. */
  async submitToken(token: string): Promise<void> {
    tokenStore.set(token.trim());
    this.ui.tokenPrompt = false;
    const retry = this.pending;
    this.pending = null;
    if (retry) await this.mutate(retry);
  }

  cancelToken(): void {
    this.ui.tokenPrompt = false;
    this.pending = null;
  }

  private async mutate(run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
    } catch (err) {
      if (err instanceof TokenError) {
        this.pending = run;
        this.ui.tokenMessage = err.code === 'MEM_ERR_TOKEN_INVALID' ? 'That token was not accepted. Enter the dashboard token again.' : 'This dashboard needs its token to make changes.';
        if (err.code === 'MEM_ERR_TOKEN_INVALID') tokenStore.clear();
        this.ui.tokenPrompt = true;
        return;
      }
      this.note(err);
    }
  }

  private notice(text: string): void {
    this.ui.notice = text;
  }

  private note(err: unknown): void {
    const e = err as { message?: string; code?: string | null };
    this.ui.notice = `${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}`;
  }
}
