/**
 * Scope as a property (design/hardening.md, Per-turn safety 4): over random facts, links, edits, deletes,
 * recalls, vault entries and callers, no read path hands a caller anything the pure rule `isVisible`
 * forbids, and listFacts returns everything it allows. The oracle is the raw rows of the SQLite file
 * judged by `isVisible`, never the service's own SQL filter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryError } from '../src/core/errors.js';
import type { MemoryEvent } from '../src/core/events.js';
import { isVisible } from '../src/core/scope.js';
import { CALLER_ROLES, CONFLICT_STATUSES, LINK_TYPES, OPERATOR, type Caller, type Scope, type ScopeKind } from '../src/core/types.js';
import type { MemoryService } from '../src/memory/service.js';
import { scopeKey } from '../src/store/vault.js';
import { openService, tempHome } from './helpers.js';

const VAULT_KEY = '00112233445566778899aabbccddeeff'.repeat(2); // 64 hex characters: a fixed 32-byte key
const AGENTS = ['agent-a', 'agent-b', 'agent-c'] as const;
const SESSIONS = ['sess-1', 'sess-2', 'sess-3'] as const;
const WORDS = ['deploy', 'token', 'backup', 'postgres', 'theme', 'budget'] as const;
const ENTITIES = ['Alice', 'Infra'] as const;
const SERVICES = ['github', 'aws', 'pagerduty'] as const;

// ---- generators ------------------------------------------------------------------------------------

interface ScopeSpec {
  readonly kind: ScopeKind;
  readonly agentId: string | null;
  readonly sessionId: string | null;
}

const scopeArb: fc.Arbitrary<ScopeSpec> = fc.oneof(
  fc.constant({ kind: 'global' as const, agentId: null, sessionId: null }),
  fc.record({ kind: fc.constant('agent' as const), agentId: fc.constantFrom(...AGENTS), sessionId: fc.constant(null) }),
  // A session-scoped fact may also carry the agent that wrote it; visibility ignores it.
  fc.record({ kind: fc.constant('session' as const), agentId: fc.option(fc.constantFrom(...AGENTS), { nil: null }), sessionId: fc.constantFrom(...SESSIONS) }),
);

const callerArb: fc.Arbitrary<Caller> = fc.record({
  role: fc.constantFrom(...CALLER_ROLES),
  agentId: fc.option(fc.constantFrom(...AGENTS), { nil: null }),
  sessionId: fc.option(fc.constantFrom(...SESSIONS), { nil: null }),
});

const textArb = fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 5 }).map((ws) => ws.join(' '));

interface FactSpec {
  readonly scope: ScopeSpec;
  readonly text: string;
  readonly entity: string | null;
  readonly category: 'fact' | 'preference';
}

const factArb: fc.Arbitrary<FactSpec> = fc.record({
  scope: scopeArb,
  text: textArb,
  entity: fc.option(fc.constantFrom(...ENTITIES), { nil: null }),
  category: fc.constantFrom('fact' as const, 'preference' as const),
});

type Op =
  | { op: 'store'; fact: FactSpec }
  | { op: 'storeAs'; caller: Caller; kind: ScopeKind; text: string }
  | { op: 'link'; a: number; b: number; linkType: (typeof LINK_TYPES)[number] }
  | { op: 'edit'; i: number; text: string }
  | { op: 'delete'; i: number }
  | { op: 'pin'; i: number }
  | { op: 'recall'; caller: Caller; query: string }
  | { op: 'vault'; service: string; scope: ScopeSpec };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: factArb.map((fact) => ({ op: 'store' as const, fact })), weight: 5 },
  { arbitrary: fc.record({ op: fc.constant('storeAs' as const), caller: callerArb, kind: fc.constantFrom<ScopeKind>('global', 'agent', 'session'), text: textArb }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('link' as const), a: fc.nat(), b: fc.nat(), linkType: fc.constantFrom(...LINK_TYPES.filter((t) => t !== 'SUPERSEDES')) }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('edit' as const), i: fc.nat(), text: textArb }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('delete' as const), i: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('pin' as const), i: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('recall' as const), caller: callerArb, query: fc.constantFrom(...WORDS) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('vault' as const), service: fc.constantFrom(...SERVICES), scope: scopeArb }), weight: 2 },
);

const worldArb = fc.record({
  ops: fc.array(opArb, { minLength: 3, maxLength: 30 }),
  callers: fc.array(callerArb, { minLength: 1, maxLength: 5 }),
});

// ---- building a world ------------------------------------------------------------------------------

/** Only typed user errors (an ended fact, a scope the caller may not write...) are expected here. */
function tolerate(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof MemoryError) || !err.isUserError) throw err;
  }
}

async function build(svc: MemoryService, clock: { advance(ms: number): void; now: number }, ops: readonly Op[]): Promise<{ times: number[]; vault: Map<string, string> }> {
  const ids: string[] = [];
  const pendingRecalls: Promise<unknown>[] = [];
  const times: number[] = [clock.now];
  /** "service|scopeKey" -> the secret last stored there. */
  const vault = new Map<string, string>();
  const at = (i: number): string | undefined => (ids.length > 0 ? ids[i % ids.length] : undefined);
  ops.forEach((o, k) => {
    clock.advance(1000);
    times.push(clock.now);
    switch (o.op) {
      case 'store': {
        const { scope, ...rest } = o.fact;
        const r = svc.memoryStore({ ...rest, text: `${rest.text} n${k}`, scope: scope.kind, scopeAgentId: scope.agentId ?? undefined, scopeSessionId: scope.sessionId ?? undefined });
        ids.push(r.fact.id);
        break;
      }
      case 'storeAs':
        tolerate(() => void ids.push(svc.memoryStore({ text: `${o.text} s${k}`, scope: o.kind }, o.caller).fact.id));
        break;
      case 'link': {
        const a = at(o.a);
        const b = at(o.b);
        if (a && b && a !== b) tolerate(() => void svc.memoryLink({ sourceId: a, targetId: b, linkType: o.linkType }));
        break;
      }
      case 'edit': {
        const id = at(o.i);
        if (id) tolerate(() => void ids.push(svc.editFact({ id, text: `${o.text} e${k}` }).id));
        break;
      }
      case 'delete': {
        const id = at(o.i);
        if (id) tolerate(() => void svc.deleteFact(id));
        break;
      }
      case 'pin': {
        const id = at(o.i);
        if (id) tolerate(() => void svc.pin(id));
        break;
      }
      case 'recall':
        // Without a semantic layer recall completes synchronously; a failure would surface as a rejection.
        pendingRecalls.push(svc.memoryRecall({ query: o.query }, o.caller));
        break;
      case 'vault': {
        const secret = `secret-${k}-${o.service}`;
        const { entry } = svc.vaultPut({ service: o.service, secret, scope: o.scope.kind, scopeAgentId: o.scope.agentId ?? undefined, scopeSessionId: o.scope.sessionId ?? undefined });
        vault.set(`${o.service}|${scopeKey(entry.scope)}`, secret);
        break;
      }
    }
  });
  await Promise.all(pendingRecalls);
  return { times, vault };
}

// ---- the oracle: raw rows ------------------------------------------------------------------------

interface RawFact {
  readonly id: string;
  readonly scope: Scope;
  readonly validFrom: number;
  readonly validUntil: number | null;
  readonly deleted: boolean;
}

interface RawRow {
  scope_kind: ScopeKind;
  scope_agent: string | null;
  scope_session: string | null;
}

const scopeOf = (r: RawRow): Scope => ({ kind: r.scope_kind, agentId: r.scope_agent, sessionId: r.scope_session });

function rawFacts(svc: MemoryService): Map<string, RawFact> {
  const rows = svc.db.prepare('SELECT id, scope_kind, scope_agent, scope_session, valid_from, valid_until, deleted_at FROM facts').all() as (RawRow & {
    id: string;
    valid_from: number;
    valid_until: number | null;
    deleted_at: number | null;
  })[];
  return new Map(rows.map((r) => [r.id, { id: r.id, scope: scopeOf(r), validFrom: r.valid_from, validUntil: r.valid_until, deleted: r.deleted_at !== null }]));
}

/** Every fact id an event reveals. */
function factIdsOf(e: MemoryEvent): string[] {
  switch (e.kind) {
    case 'fact.stored':
      return [e.fact.id];
    case 'fact.superseded':
      return [e.oldId, e.newId];
    case 'fact.deleted':
    case 'fact.updated':
    case 'fact.ended':
      return [e.factId];
    case 'link.created':
    case 'link.strengthened':
    case 'link.updated':
      return [e.link.sourceId, e.link.targetId];
    case 'link.deleted':
      return [e.sourceId, e.targetId];
    case 'recall':
      return e.scores.map((s) => s.factId);
    case 'conflict.raised':
    case 'conflict.resolved':
      return [e.conflict.newFactId, e.conflict.oldFactId];
    case 'plugin':
      return [];
  }
}

const sorted = (xs: Iterable<string>): string[] => [...xs].sort();

// ---- the checks ----------------------------------------------------------------------------------

async function checkCaller(svc: MemoryService, caller: Caller, times: readonly number[], vault: ReadonlyMap<string, string>): Promise<void> {
  const raw = rawFacts(svc);
  const sees = (id: string): boolean => {
    const f = raw.get(id);
    if (!f) throw new Error(`a read returned ${id}, which is not in the facts table`);
    return isVisible(f.scope, caller);
  };
  const visible = [...raw.values()].filter((f) => isVisible(f.scope, caller));
  const who = JSON.stringify(caller);
  const expectAllVisible = (what: string, ids: Iterable<string>): void => {
    const leaked = [...ids].filter((id) => !sees(id));
    expect(leaked, `${what} leaked out-of-scope facts to ${who}`).toEqual([]);
  };

  // listFacts: sound and complete, current facts and with superseded versions.
  const current = svc.listFacts({ limit: 1000 }, caller).map((f) => f.id);
  expectAllVisible('listFacts', current);
  expect(sorted(current), `listFacts completeness for ${who}`).toEqual(sorted(visible.filter((f) => f.validUntil === null).map((f) => f.id)));
  const withOld = svc.listFacts({ limit: 1000, includeSuperseded: true }, caller).map((f) => f.id);
  expectAllVisible('listFacts(includeSuperseded)', withOld);
  expect(sorted(withOld)).toEqual(sorted(visible.filter((f) => !f.deleted).map((f) => f.id)));

  // factsAsOf at every moment of the build.
  for (const t of times) {
    const asOf = svc.factsAsOf(t, caller, { limit: 1000 }).map((f) => f.id);
    expectAllVisible(`factsAsOf(${t})`, asOf);
    expect(sorted(asOf)).toEqual(sorted(visible.filter((f) => f.validFrom <= t && (f.validUntil === null || f.validUntil > t)).map((f) => f.id)));
  }

  // Search.
  for (const query of [...WORDS, 'n1 n2 n3 s4 e5']) {
    expectAllVisible(`memoryRecall(${query})`, (await svc.memoryRecall({ query, limit: 50, includeSuperseded: true }, caller)).results.map((r) => r.fact.id));
  }

  // Graph: links (both endpoints), conflicts (both sides), and the link count in stats.
  const links = svc.listLinks(caller, { limit: 10_000 });
  expectAllVisible('listLinks', links.flatMap((l) => [l.sourceId, l.targetId]));
  const rawLinks = svc.db.prepare('SELECT id, source_id AS s, target_id AS t FROM links').all() as { id: string; s: string; t: string }[];
  const isCurrentVisible = (id: string): boolean => sees(id) && raw.get(id)?.validUntil === null;
  expect(sorted(links.map((l) => l.id))).toEqual(sorted(rawLinks.filter((l) => isCurrentVisible(l.s) && isCurrentVisible(l.t)).map((l) => l.id)));
  for (const status of CONFLICT_STATUSES) {
    expectAllVisible(`listConflicts(${status})`, svc.listConflicts(caller, status).flatMap((c) => [c.newFactId, c.oldFactId]));
  }

  // Recall history: ownership-gated, and only visible scores.
  for (const e of svc.recallHistory(caller, { limit: 1000 })) {
    expectAllVisible('recallHistory scores', e.scores.map((s) => s.factId));
    if (caller.role !== 'operator') {
      const owns = caller.agentId ? e.owner.agentId === caller.agentId : e.owner.agentId === null && e.owner.sessionId === caller.sessionId;
      expect(owns, `recallHistory gave ${who} a recall owned by ${JSON.stringify(e.owner)}`).toBe(true);
    }
  }

  const stats = svc.stats(caller);
  expect(stats.totalFacts, `stats.totalFacts for ${who}`).toBe(visible.filter((f) => f.validUntil === null).length);
  expect(stats.links).toBe(links.length);

  // getFact / history on every fact in the file.
  for (const f of raw.values()) {
    if (!isVisible(f.scope, caller)) {
      expect(() => svc.getFact(f.id, caller), `getFact(${f.id}) by ${who}`).toThrow(expect.objectContaining({ code: 'MEM_ERR_FACT_NOT_FOUND' }));
      expect(() => svc.history(f.id, caller)).toThrow(expect.objectContaining({ code: 'MEM_ERR_FACT_NOT_FOUND' }));
    } else if (f.deleted && caller.role !== 'operator') {
      expect(() => svc.getFact(f.id, caller)).toThrow(expect.objectContaining({ code: 'MEM_ERR_FACT_NOT_FOUND' }));
    } else {
      expect(svc.getFact(f.id, caller).id).toBe(f.id);
      expectAllVisible(`history(${f.id})`, svc.history(f.id, caller).map((v) => v.id));
    }
  }

  checkEvents(svc, caller, sees);
  checkVault(svc, caller, vault);
}

/** Replay the whole event log through subscribe(caller): nothing invisible, everything visible. */
function checkEvents(svc: MemoryService, caller: Caller, sees: (id: string) => boolean): void {
  const got: MemoryEvent[] = [];
  const sub = svc.subscribe(caller, (e) => got.push(e), 0);
  sub.unsubscribe();
  const who = JSON.stringify(caller);
  for (const e of got) {
    const leaked = factIdsOf(e).filter((id) => !sees(id));
    expect(leaked, `event ${e.seq} (${e.kind}) leaked out-of-scope facts to ${who}`).toEqual([]);
    expect(e.scopes.every((s) => isVisible(s, caller)), `event ${e.seq} (${e.kind}) names an invisible scope to ${who}`).toBe(true);
    if (e.kind === 'recall' && caller.role !== 'operator') {
      const owns = (caller.agentId !== null && caller.agentId === e.owner.agentId) || (e.owner.agentId === null && caller.sessionId !== null && caller.sessionId === e.owner.sessionId);
      expect(owns, `recall event ${e.seq} delivered to ${who}, owned by ${JSON.stringify(e.owner)}`).toBe(true);
    }
  }
  // Completeness, so the check above cannot pass by delivering nothing.
  const rows = svc.db.prepare('SELECT seq, payload FROM events ORDER BY seq').all() as { seq: number; payload: string }[];
  const expected = rows
    .filter((r) => {
      const p = JSON.parse(r.payload) as { kind: string; scopes: Scope[] };
      return p.kind !== 'recall' && p.scopes.every((s) => isVisible(s, caller));
    })
    .map((r) => r.seq);
  expect(got.filter((e) => e.kind !== 'recall').map((e) => e.seq)).toEqual(expected);
  if (caller.role === 'operator') expect(got.map((e) => e.seq)).toEqual(rows.map((r) => r.seq));
}

/** A caller gets only vault entries it may see; credentialGet picks the most specific visible one. */
function checkVault(svc: MemoryService, caller: Caller, vault: ReadonlyMap<string, string>): void {
  const rows = svc.db.prepare('SELECT service, scope_key, scope_kind, scope_agent, scope_session FROM vault').all() as (RawRow & { service: string; scope_key: string })[];
  const visibleRows = rows.filter((r) => isVisible(scopeOf(r), caller));
  const who = JSON.stringify(caller);
  const listed = svc.vaultList(caller);
  expect(listed.every((e) => isVisible(e.scope, caller)), `vaultList leaked to ${who}`).toBe(true);
  expect(listed.map((e) => `${e.service}|${scopeKey(e.scope)}`).sort()).toEqual(visibleRows.map((r) => `${r.service}|${r.scope_key}`).sort());
  const rank = { session: 0, agent: 1, global: 2 } as const;
  for (const service of SERVICES) {
    const candidates = visibleRows.filter((r) => r.service === service);
    if (candidates.length === 0) {
      expect(() => svc.credentialGet({ service }, caller), `credentialGet(${service}) by ${who}`).toThrow(expect.objectContaining({ code: 'MEM_ERR_CREDENTIAL_NOT_FOUND' }));
      continue;
    }
    const best = Math.min(...candidates.map((r) => rank[r.scope_kind]));
    const allowed = candidates.filter((r) => rank[r.scope_kind] === best).map((r) => vault.get(`${service}|${r.scope_key}`));
    expect(allowed, `credentialGet(${service}) by ${who}`).toContain(svc.credentialGet({ service }, caller).secret);
  }
}

describe('scope: no read path leaks an out-of-scope fact', () => {
  it('holds for random facts, links, recalls, vault entries and callers', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async ({ ops, callers }) => {
        const home = tempHome();
        home.env.HYBRID_MEM_VAULT_KEY = VAULT_KEY;
        const { svc, clock } = openService(home);
        try {
          const { times, vault } = await build(svc, clock, ops);
          // A few callers every run: the operator, and agents that share nothing or only a session.
          const fixed: Caller[] = [OPERATOR, { role: 'specialist', agentId: null, sessionId: null }, { role: 'orchestrator', agentId: null, sessionId: 'sess-1' }];
          for (const caller of [...fixed, ...callers]) await checkCaller(svc, caller, times, vault);
        } finally {
          svc.close();
          home.cleanup();
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
