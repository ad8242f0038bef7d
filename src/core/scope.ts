/**
 * The one visibility rule. Every read in the store is built from `visibility(caller)`, so the SQL
 * filter and `isVisible` (used by tests and by in-memory paths such as event delivery) cannot disagree.
 *
 * | caller        | global | agent-scoped                  | session-scoped                     |
 * |---------------|--------|-------------------------------|------------------------------------|
 * | operator      | yes    | every agent's                 | every session's (not in hints)     |
 * | orchestrator  | yes    | every agent's (all credentials)| only its own session's            |
 * | specialist    | yes    | only its own agent's          | only its own session's             |
 *
 * Injected hints (auth-failure recall) never include session-scoped facts, whoever asks.
 */
import type { Caller, Scope, ScopeKind } from './types.js';

/** What a caller may see, as data the store turns into a WHERE clause. */
export interface Visibility {
  readonly all: boolean;
  /** 'any' = agent-scoped facts of every agent; otherwise the agent ids whose facts are visible. */
  readonly agentIds: 'any' | readonly string[];
  /** 'any' = every session's facts; otherwise the session ids whose facts are visible. */
  readonly sessionIds: 'any' | readonly string[];
}

export interface VisibilityOptions {
  /** For injected hints: session-scoped facts are never included. */
  readonly forHint?: boolean;
}

export function visibility(caller: Caller, options: VisibilityOptions = {}): Visibility {
  const sessions = (own: 'any' | readonly string[]): 'any' | readonly string[] => (options.forHint ? [] : own);
  const ownSession = caller.sessionId ? [caller.sessionId] : [];
  switch (caller.role) {
    case 'operator':
      return { all: !options.forHint, agentIds: 'any', sessionIds: sessions('any') };
    case 'orchestrator':
      return { all: false, agentIds: 'any', sessionIds: sessions(ownSession) };
    case 'specialist':
      return { all: false, agentIds: caller.agentId ? [caller.agentId] : [], sessionIds: sessions(ownSession) };
  }
}

export function isVisible(scope: Scope, caller: Caller, options: VisibilityOptions = {}): boolean {
  const v = visibility(caller, options);
  if (v.all) return true;
  switch (scope.kind) {
    case 'global':
      return true;
    case 'agent':
      return v.agentIds === 'any' || (scope.agentId !== null && v.agentIds.includes(scope.agentId));
    case 'session':
      return v.sessionIds === 'any' || (scope.sessionId !== null && v.sessionIds.includes(scope.sessionId));
  }
}

/**
 * The scope a new fact gets when the caller names only a kind: agent scope binds to the caller's agent,
 * session scope to the caller's session. Returns a message when the caller lacks the id it needs.
 */
export function scopeFor(kind: ScopeKind, caller: Caller, explicit?: { agentId?: string | null; sessionId?: string | null }): Scope | string {
  if (kind === 'global') return { kind, agentId: null, sessionId: null };
  if (kind === 'agent') {
    const agentId = explicit?.agentId ?? caller.agentId;
    if (!agentId) return 'agent scope needs an agent id (the caller has none)';
    if (caller.role !== 'operator' && caller.agentId !== agentId) return 'an agent may only write agent-scoped facts for itself';
    return { kind, agentId, sessionId: null };
  }
  const sessionId = explicit?.sessionId ?? caller.sessionId;
  if (!sessionId) return 'session scope needs a session id (the caller has none)';
  if (caller.role !== 'operator' && caller.sessionId !== sessionId) return 'an agent may only write session-scoped facts for its own session';
  return { kind, agentId: explicit?.agentId ?? caller.agentId, sessionId };
}

/**
 * Recall history is ownership-gated: the operator reads every recall; an agent reads the recalls its own
 * agent id made; a caller without an agent id reads those made in its session by callers without one.
 * The store's SQL (src/store/recalls.ts) mirrors this rule.
 */
export function ownsRecall(owner: Caller, caller: Caller): boolean {
  if (caller.role === 'operator') return true;
  if (caller.agentId !== null) return owner.agentId === caller.agentId;
  return caller.sessionId !== null && owner.agentId === null && owner.sessionId === caller.sessionId;
}

/**
 * The role of one agent in a gateway, where many agents share one configuration: least privilege, so an
 * agent is an orchestrator (every agent's facts and credentials) only when its id is listed, and a
 * specialist (its own agent's) otherwise. A run that names no agent is a specialist.
 */
export function gatewayRole(agentId: string | null, orchestrators: readonly string[]): 'orchestrator' | 'specialist' {
  return agentId !== null && orchestrators.includes(agentId) ? 'orchestrator' : 'specialist';
}
