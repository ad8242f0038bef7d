/**
 * Vault operations. Storing a secret also keeps a pointer fact (entity Credentials, tag credential,
 * category technical) in the same scope, so recall can say "there is a credential for X in the vault"
 * without ever decrypting it. Only credential_get decrypts.
 */
import { visibility } from '../core/scope.js';
import type { Caller, Scope, VaultEntry, VaultType } from '../core/types.js';
import type { Ctx } from './context.js';
import { credentialGetSchema, parse, vaultPutSchema, type VaultPutInput } from './inputs.js';
import { endFact, writeVersion } from './versions.js';
import { resolveScope } from './write.js';

export function vaultPointerText(service: string, type: VaultType): string {
  return `Credential for ${service} (${type}), stored in secure vault, use credential_get(service=${service}) to retrieve.`;
}

export function vaultPut(ctx: Ctx, input: VaultPutInput, caller: Caller): { entry: VaultEntry; replaced: boolean } {
  const i = parse(vaultPutSchema, input, 'vault.put');
  const scope = resolveScope(i.scope, caller, { agentId: i.scopeAgentId, sessionId: i.scopeSessionId }, 'vault.put.scope');
  return ctx.tx('vault.put', () => {
    const now = ctx.now();
    const replaced = ctx.vault.put(i.service, i.type, i.secret, scope, i.note, now);
    upsertPointer(ctx, i.service, i.type, scope, now);
    const entry = ctx.vault.entry(i.service, { all: false, agentIds: scope.agentId ? [scope.agentId] : [], sessionIds: scope.sessionId ? [scope.sessionId] : [] });
    return { entry: entry as VaultEntry, replaced };
  });
}

function upsertPointer(ctx: Ctx, service: string, type: VaultType, scope: Scope, now: number): void {
  const text = vaultPointerText(service, type);
  const old = ctx.facts.vaultPointer(service, scope);
  if (old && old.text === text) return;
  writeVersion(
    ctx,
    {
      text,
      category: 'technical',
      entity: 'Credentials',
      tags: ['credential', type.replace('_', '-'), service.toLowerCase()].filter((t, k, a) => a.indexOf(t) === k).slice(0, 32),
      importance: 0.8,
      confidence: 1,
      decayClass: 'permanent',
      expiresAt: null,
      pinned: false,
      scope,
      episodeId: null,
      vaultService: service,
      source: 'system',
    },
    old,
    now,
  );
}

/** The agent tool credential_get(service): the most specific visible secret for the service. */
export function credentialGet(ctx: Ctx, input: { service: string }, caller: Caller): { service: string; type: VaultType; secret: string } {
  const i = parse(credentialGetSchema, input, 'credential_get');
  const { entry, secret } = ctx.vault.get(i.service, visibility(caller));
  return { service: entry.service, type: entry.type, secret };
}

export function vaultList(ctx: Ctx, caller: Caller): VaultEntry[] {
  return ctx.vault.list(visibility(caller));
}

export function vaultRemove(ctx: Ctx, input: { service: string; scope?: Scope['kind']; scopeAgentId?: string; scopeSessionId?: string }, caller: Caller): boolean {
  const i = parse(credentialGetSchema, { service: input.service }, 'vault.remove');
  const scope = resolveScope(input.scope ?? 'global', caller, { agentId: input.scopeAgentId, sessionId: input.scopeSessionId }, 'vault.remove.scope');
  return ctx.tx('vault.remove', () => {
    const removed = ctx.vault.remove(i.service, scope);
    const pointer = ctx.facts.vaultPointer(i.service, scope);
    if (pointer) {
      endFact(ctx, pointer, 'deleted', ctx.now());
    }
    return removed;
  });
}
