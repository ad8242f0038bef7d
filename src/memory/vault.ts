/**
 * Vault operations. Storing a secret also keeps a pointer fact (entity Credentials, tag credential,
 * category technical) in the same scope, so recall can say "there is a credential for X in the vault"
 * without ever decrypting it. Only credential_get decrypts.
 *
 * A put keeps what the entry already is: without a type or note it takes those of the entry in that scope
 * (a stored one, or the one an import named while the secret was missing), and a pointer fact someone
 * wrote (imported, or edited) keeps its text and entity, which name the host the credential is for.
 */
import { visibility } from '../core/scope.js';
import { VAULT_TYPES, type Caller, type Scope, type VaultEntry, type VaultType } from '../core/types.js';
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
    const known = ctx.vault.at(i.service, scope) ?? ctx.vault.pendingAt(i.service, scope);
    const type = i.type ?? known?.type ?? 'password';
    const note = i.note === undefined ? (known?.note ?? null) : i.note || null;
    const replaced = ctx.vault.put(i.service, type, i.secret, scope, note, now);
    upsertPointer(ctx, i.service, type, scope, now);
    return { entry: ctx.vault.at(i.service, scope) as VaultEntry, replaced };
  });
}

/** Whether a pointer's text is one this module writes (for any type), rather than someone's own words. */
function isGenericPointer(text: string, service: string): boolean {
  return VAULT_TYPES.some((t) => vaultPointerText(service, t) === text);
}

function upsertPointer(ctx: Ctx, service: string, type: VaultType, scope: Scope, now: number): void {
  const text = vaultPointerText(service, type);
  const old = ctx.facts.vaultPointer(service, scope);
  // Only our own line follows the type; a written one (an import's, an edit's) may name the host and the
  // account, which the generic line does not, and recall finds the credential by them.
  if (old && (old.text === text || !isGenericPointer(old.text, service))) return;
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
